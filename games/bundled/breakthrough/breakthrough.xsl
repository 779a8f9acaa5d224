<?xml version="1.0" encoding="UTF-8"?>
<!-- Breakthrough 6x6: draws a state of the bundled breakthrough game, given as ggp-base's
     state XML (<state><fact><relation>cell</relation><argument>1</argument>...),
     as an HTML table. Each cell element carries data-x and data-y, the first
     and second coordinate of its cell fact, and data-content, the content
     ("" for none). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>
<!-- over is "true" for the last state of a finished match, which has no one to move. -->
<xsl:param name="over"/>

<xsl:template match="/">
  <div class="breakthrough-view">
    <style>
      table.breakthrough-board { border-collapse: collapse; background: #fff; }
      table.breakthrough-board td { width: 50px; height: 50px; border: 2px solid #8b6b3e; text-align: center; vertical-align: middle; font: bold 30px sans-serif; padding: 0; }
      table.breakthrough-board td { background: #f0d9b5; }
      .pawn { width: 34px; height: 34px; border-radius: 50%; margin: auto; border: 2px solid #333; }
      .pawn.white { background: #fff; }
      .pawn.black { background: #222; }
    </style>
    <table class="breakthrough-board">
      <xsl:call-template name="rows"><xsl:with-param name="r" select="6"/></xsl:call-template>
    </table>
    <xsl:if test="not($over = 'true')"><p class="control">to move: <b><xsl:value-of select="/state/fact[relation='control']/argument[1]"/></b></p></xsl:if>
  </div>
</xsl:template>

<xsl:template name="rows">
  <xsl:param name="r"/>
  <tr><xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="1"/></xsl:call-template></tr>
  <xsl:if test="$r &gt; 1">
    <xsl:call-template name="rows"><xsl:with-param name="r" select="$r - 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

<xsl:template name="cells">
  <xsl:param name="r"/>
  <xsl:param name="c"/>
  <xsl:variable name="v" select="/state/fact[relation='cell' and argument[1]=$c and argument[2]=$r]/argument[3]"/>
  <td class="cell" data-x="{$c}" data-y="{$r}" data-content="{$v}">
    <xsl:if test="$v"><div class="pawn {$v}"></div></xsl:if>
  </td>
  <xsl:if test="$c &lt; 6">
    <xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="$c + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

</xsl:stylesheet>

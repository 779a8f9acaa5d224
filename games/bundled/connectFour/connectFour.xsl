<?xml version="1.0" encoding="UTF-8"?>
<!-- Connect Four: draws a state of the bundled connectFour game, given as ggp-base's
     state XML (<state><fact><relation>cell</relation><argument>1</argument>...),
     as an HTML table. Each cell element carries data-x and data-y, the first
     and second coordinate of its cell fact, and data-content, the content
     ("" for none). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>
<!-- over is "true" for the last state of a finished match, which has no one to move. -->
<xsl:param name="over"/>

<xsl:template match="/">
  <div class="connectFour-view">
    <style>
      table.connectFour-board { border-collapse: collapse; background: #1f4e9c; }
      table.connectFour-board td { width: 52px; height: 52px; border: 2px solid #1f4e9c; text-align: center; vertical-align: middle; font: bold 12px sans-serif; padding: 0; }
      .disc { width: 42px; height: 42px; border-radius: 50%; margin: auto; background: #fff; }
      .disc.red { background: #e02424; }
      .disc.black { background: #222; }
    </style>
    <table class="connectFour-board">
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
    <div class="disc {$v}"></div>
  </td>
  <xsl:if test="$c &lt; 7">
    <xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="$c + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

</xsl:stylesheet>

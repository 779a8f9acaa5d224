<?xml version="1.0" encoding="UTF-8"?>
<!-- Eight Puzzle: draws a state of the bundled eightPuzzle game, given as ggp-base's
     state XML (<state><fact><relation>cell</relation><argument>1</argument>...),
     as an HTML table. Each cell element carries data-x and data-y, the first
     and second coordinate of its cell fact, and data-content, the content
     ("" for none). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="eightPuzzle-view">
    <style>
      table.eightPuzzle-board { border-collapse: collapse; background: #fff; }
      table.eightPuzzle-board td { width: 64px; height: 64px; border: 2px solid #555; text-align: center; vertical-align: middle; font: bold 32px sans-serif; padding: 0; }
      table.eightPuzzle-board td { background: #f6e7c1; }
      table.eightPuzzle-board td[data-content="b"] { background: #555; }
    </style>
    <table class="eightPuzzle-board">
      <xsl:call-template name="rows"><xsl:with-param name="r" select="1"/></xsl:call-template>
    </table>
    <p class="step">steps taken: <b><xsl:value-of select="/state/fact[relation='step']/argument[1]"/></b></p>
  </div>
</xsl:template>

<xsl:template name="rows">
  <xsl:param name="r"/>
  <tr><xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="1"/></xsl:call-template></tr>
  <xsl:if test="$r &lt; 3">
    <xsl:call-template name="rows"><xsl:with-param name="r" select="$r + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

<xsl:template name="cells">
  <xsl:param name="r"/>
  <xsl:param name="c"/>
  <xsl:variable name="v" select="/state/fact[relation='cell' and argument[1]=$r and argument[2]=$c]/argument[3]"/>
  <td class="cell" data-x="{$r}" data-y="{$c}" data-content="{$v}">
    <xsl:if test="$v!='b'"><xsl:value-of select="$v"/></xsl:if>
  </td>
  <xsl:if test="$c &lt; 3">
    <xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="$c + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

</xsl:stylesheet>

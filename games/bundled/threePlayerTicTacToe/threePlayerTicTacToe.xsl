<?xml version="1.0" encoding="UTF-8"?>
<!-- Three-Player Tic-Tac-Toe: draws a state of the bundled threePlayerTicTacToe game, given as ggp-base's
     state XML (<state><fact><relation>cell</relation><argument>1</argument>...),
     as an HTML table. Each cell element carries data-x and data-y, the first
     and second coordinate of its cell fact, and data-content, the content
     ("" for none). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>
<!-- over is "true" for the last state of a finished match, which has no one to move. -->
<xsl:param name="over"/>

<xsl:template match="/">
  <div class="threePlayerTicTacToe-view">
    <style>
      table.threePlayerTicTacToe-board { border-collapse: collapse; background: #fff; }
      table.threePlayerTicTacToe-board td { width: 56px; height: 56px; border: 2px solid #333; text-align: center; vertical-align: middle; font: bold 30px sans-serif; padding: 0; }
      td.cell[data-content="red"] { background: #e74c3c; }
      td.cell[data-content="green"] { background: #27ae60; }
      td.cell[data-content="blue"] { background: #2e86de; }
      td.cell span { color: #fff; }
    </style>
    <table class="threePlayerTicTacToe-board">
      <xsl:call-template name="rows"><xsl:with-param name="r" select="1"/></xsl:call-template>
    </table>
    <xsl:if test="not($over = 'true')"><p class="control">to move: <b><xsl:value-of select="/state/fact[relation='control']/argument[1]"/></b></p></xsl:if>
  </div>
</xsl:template>

<xsl:template name="rows">
  <xsl:param name="r"/>
  <tr><xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="1"/></xsl:call-template></tr>
  <xsl:if test="$r &lt; 4">
    <xsl:call-template name="rows"><xsl:with-param name="r" select="$r + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

<xsl:template name="cells">
  <xsl:param name="r"/>
  <xsl:param name="c"/>
  <xsl:variable name="v" select="/state/fact[relation='cell' and argument[1]=$r and argument[2]=$c]/argument[3]"/>
  <td class="cell" data-x="{$r}" data-y="{$c}" data-content="{$v}">
    <xsl:if test="$v!='b'"><span><xsl:value-of select="translate(substring($v,1,1),'rgb','RGB')"/></span></xsl:if>
  </td>
  <xsl:if test="$c &lt; 4">
    <xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="$c + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

</xsl:stylesheet>

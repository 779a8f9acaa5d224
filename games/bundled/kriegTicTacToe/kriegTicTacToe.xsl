<?xml version="1.0" encoding="UTF-8"?>
<!-- Kriegspiel Tic-Tac-Toe: draws a state of the bundled game, given as
     ggp-base's state XML, as the true board, with both players' marks,
     though neither player sees the other's. Each cell element carries
     data-x, data-y and data-content (b, x or o). The cells a player found
     taken (blocked) are not written under the board: that happened at one
     step, and the pages say it as that step's, in the words of its
     percept. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>
<!-- over is "true" for the last state of a finished match, which has no one to move. -->
<xsl:param name="over"/>

<xsl:template match="/">
  <div class="kriegTicTacToe-view">
    <style>
      table.kriegTicTacToe-board { border-collapse: collapse; background: #fff; }
      table.kriegTicTacToe-board td { width: 70px; height: 70px; border: 2px solid #333; text-align: center; vertical-align: middle; font: bold 44px sans-serif; padding: 0; }
      td.cell[data-content="o"] { color: #c0392b; }
      td.cell[data-content="x"] { color: #2c3e50; }
    </style>
    <table class="kriegTicTacToe-board">
      <xsl:call-template name="rows"><xsl:with-param name="r" select="1"/></xsl:call-template>
    </table>
    <xsl:if test="not($over = 'true')"><p class="control">to move: <b><xsl:value-of select="/state/fact[relation='control']/argument[1]"/></b></p></xsl:if>
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
    <xsl:choose><xsl:when test="$v='x'">X</xsl:when><xsl:when test="$v='o'">O</xsl:when></xsl:choose>
  </td>
  <xsl:if test="$c &lt; 3">
    <xsl:call-template name="cells"><xsl:with-param name="r" select="$r"/><xsl:with-param name="c" select="$c + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

</xsl:stylesheet>

<?xml version="1.0" encoding="UTF-8"?>
<!-- Maze: draws a state of the bundled maze game, given as ggp-base's state
     XML, as the 5x5 maze with the robot's cell. The walls and the exit are
     fixed by the rules, not in the state, so they are written here. Each
     cell carries data-x and data-y and data-content: robot, wall, exit or "". -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:variable name="walls" select="'|3,1|1,2|3,2|5,2|5,3|2,4|3,4|3,5|4,5|'"/>
<xsl:variable name="rx" select="/state/fact[relation='at']/argument[1]"/>
<xsl:variable name="ry" select="/state/fact[relation='at']/argument[2]"/>

<xsl:template match="/">
  <div class="maze-view">
    <style>
      table.maze-board { border-collapse: collapse; }
      table.maze-board td { width: 48px; height: 48px; border: 1px solid #999; text-align: center; font: bold 26px sans-serif; background: #fff; }
      table.maze-board td[data-content="wall"] { background: #444; }
      table.maze-board td[data-content="exit"] { background: #bfe8c0; }
      table.maze-board td[data-content="robot"] { background: #ffe08a; }
    </style>
    <table class="maze-board">
      <xsl:call-template name="rows"><xsl:with-param name="y" select="1"/></xsl:call-template>
    </table>
    <p class="step">steps taken: <b><xsl:value-of select="/state/fact[relation='step']/argument[1]"/></b></p>
  </div>
</xsl:template>

<xsl:template name="rows">
  <xsl:param name="y"/>
  <tr><xsl:call-template name="cells"><xsl:with-param name="y" select="$y"/><xsl:with-param name="x" select="1"/></xsl:call-template></tr>
  <xsl:if test="$y &lt; 5">
    <xsl:call-template name="rows"><xsl:with-param name="y" select="$y + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>

<xsl:template name="cells">
  <xsl:param name="y"/>
  <xsl:param name="x"/>
  <xsl:variable name="v">
    <xsl:choose>
      <xsl:when test="$x = $rx and $y = $ry">robot</xsl:when>
      <xsl:when test="contains($walls, concat('|', $x, ',', $y, '|'))">wall</xsl:when>
      <xsl:when test="$x = 5 and $y = 5">exit</xsl:when>
    </xsl:choose>
  </xsl:variable>
  <td class="cell" data-x="{$x}" data-y="{$y}" data-content="{$v}">
    <xsl:choose>
      <xsl:when test="$v = 'robot'">R</xsl:when>
      <xsl:when test="$v = 'exit'">E</xsl:when>
    </xsl:choose>
  </td>
  <xsl:if test="$x &lt; 5">
    <xsl:call-template name="cells"><xsl:with-param name="y" select="$y"/><xsl:with-param name="x" select="$x + 1"/></xsl:call-template>
  </xsl:if>
</xsl:template>
</xsl:stylesheet>

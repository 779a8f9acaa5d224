<?xml version="1.0" encoding="UTF-8"?>
<!-- Battleships in Fog: draws a state of the bundled game, given as
     ggp-base's state XML, as the sea of 3 columns by 2 rows. The viewer
     shows the true state: the ship is drawn even where the captain cannot
     see it. Each cell carries data-x, data-y, data-ship and data-shot
     ("yes" or "no"). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="battleshipsFog-view">
    <style>
      table.battleshipsFog-sea td { width: 56px; height: 56px; border: 1px solid #1a5276; background: #aed6f1; text-align: center; font: bold 22px sans-serif; }
      table.battleshipsFog-sea td[data-ship="yes"] { background: #7f8c8d; }
      table.battleshipsFog-sea td[data-shot="yes"] { color: #c0392b; }
    </style>
    <table class="battleshipsFog-sea">
      <xsl:call-template name="row"><xsl:with-param name="y" select="1"/></xsl:call-template>
      <xsl:call-template name="row"><xsl:with-param name="y" select="2"/></xsl:call-template>
    </table>
    <p class="moves">
      <xsl:choose>
        <xsl:when test="/state/fact[relation='hiding']">Nature hides the ship in the fog.</xsl:when>
        <xsl:when test="/state/fact[relation='sunk']">The ship is sunk.</xsl:when>
        <xsl:when test="/state/fact[relation='move' and argument[1]='4']">The captain's moves are spent; the ship got away.</xsl:when>
        <xsl:otherwise>The captain's move <xsl:value-of select="/state/fact[relation='move']/argument[1]"/> of 3.</xsl:otherwise>
      </xsl:choose>
    </p>
  </div>
</xsl:template>

<xsl:template name="row">
  <xsl:param name="y"/>
  <tr>
    <xsl:call-template name="cell"><xsl:with-param name="x" select="1"/><xsl:with-param name="y" select="$y"/></xsl:call-template>
    <xsl:call-template name="cell"><xsl:with-param name="x" select="2"/><xsl:with-param name="y" select="$y"/></xsl:call-template>
    <xsl:call-template name="cell"><xsl:with-param name="x" select="3"/><xsl:with-param name="y" select="$y"/></xsl:call-template>
  </tr>
</xsl:template>

<xsl:template name="cell">
  <xsl:param name="x"/>
  <xsl:param name="y"/>
  <xsl:variable name="ship" select="boolean(/state/fact[relation='ship' and argument[1]=$x and argument[2]=$y])"/>
  <xsl:variable name="shot" select="boolean(/state/fact[relation='shot' and argument[1]=$x and argument[2]=$y])"/>
  <td class="cell" data-x="{$x}" data-y="{$y}">
    <xsl:attribute name="data-ship"><xsl:choose><xsl:when test="$ship">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-shot"><xsl:choose><xsl:when test="$shot">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:choose>
      <xsl:when test="$ship and $shot">&#x2716;</xsl:when>
      <xsl:when test="$ship">&#x26F4;</xsl:when>
      <xsl:when test="$shot">&#x25CB;</xsl:when>
    </xsl:choose>
  </td>
</xsl:template>
</xsl:stylesheet>

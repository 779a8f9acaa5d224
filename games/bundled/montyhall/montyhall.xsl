<?xml version="1.0" encoding="UTF-8"?>
<!-- Monty Hall: draws a state of the bundled game, given as ggp-base's state
     XML, as three doors. The viewer shows the true state: the car is drawn
     even where the candidate cannot see it. Each door carries data-door and
     data-content ("car" or "goat", "" before the car is hidden), and
     data-chosen, data-opened and data-final ("yes" or "no"). The door the
     candidate ends with is framed in green when it hides the car, in red
     when it hides a goat. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="montyhall-view">
    <style>
      table.montyhall-doors td { width: 90px; height: 120px; border: 3px solid #6d4c41; text-align: center; vertical-align: middle; font: bold 18px sans-serif; }
      table.montyhall-doors td[data-opened="yes"] { background: #eee; border-style: dashed; }
      table.montyhall-doors td[data-chosen="yes"] { outline: 4px solid #2980b9; }
      table.montyhall-doors td[data-content="car"] { color: #c0392b; }
      table.montyhall-doors td[data-final="yes"][data-content="car"] { outline: 6px solid #27ae60; }
      table.montyhall-doors td[data-final="yes"][data-content="goat"] { outline: 6px solid #c0392b; }
      table.montyhall-doors .which { font: 13px sans-serif; display: block; margin-top: 6px; }
      p.phase { max-width: 330px; }
    </style>
    <table class="montyhall-doors"><tr>
      <xsl:call-template name="door"><xsl:with-param name="d" select="1"/></xsl:call-template>
      <xsl:call-template name="door"><xsl:with-param name="d" select="2"/></xsl:call-template>
      <xsl:call-template name="door"><xsl:with-param name="d" select="3"/></xsl:call-template>
    </tr></table>
    <!-- What happens now, in words: the rules' phase is no word of a person's. -->
    <xsl:variable name="phase" select="/state/fact[relation='phase']/argument[1]"/>
    <p class="phase" data-phase="{$phase}">
      <xsl:choose>
        <xsl:when test="$phase='hide'">The candidate chooses a door, while the car is hidden behind one of the three.</xsl:when>
        <xsl:when test="$phase='reveal'">The host opens one of the other doors, behind which there is a goat.</xsl:when>
        <xsl:when test="$phase='decide'">The candidate stays with the door chosen or switches to the other closed door.</xsl:when>
        <xsl:when test="$phase='over'">
          <xsl:if test="/state/fact[relation='stayed']">The candidate stayed with its first door</xsl:if>
          <xsl:if test="/state/fact[relation='switched']">The candidate switched to the other closed door</xsl:if>
          <xsl:choose>
            <xsl:when test="/state/fact[relation='car' and argument[1]=/state/fact[relation='chosen']/argument[1]] and /state/fact[relation='stayed'] or not(/state/fact[relation='car' and argument[1]=/state/fact[relation='chosen']/argument[1]]) and /state/fact[relation='switched']"> and wins the car.</xsl:when>
            <xsl:otherwise> and gets a goat.</xsl:otherwise>
          </xsl:choose>
        </xsl:when>
      </xsl:choose>
    </p>
  </div>
</xsl:template>

<xsl:template name="door">
  <xsl:param name="d"/>
  <xsl:variable name="hidden" select="boolean(/state/fact[relation='car'])"/>
  <xsl:variable name="car" select="boolean(/state/fact[relation='car' and argument[1]=$d])"/>
  <xsl:variable name="chosen" select="boolean(/state/fact[relation='chosen' and argument[1]=$d])"/>
  <xsl:variable name="opened" select="boolean(/state/fact[relation='opened' and argument[1]=$d])"/>
  <!-- The door the candidate ends with: its first if it stayed, the one
       neither chosen nor opened if it switched. -->
  <xsl:variable name="final" select="(/state/fact[relation='stayed'] and $chosen) or (/state/fact[relation='switched'] and not($chosen) and not($opened))"/>
  <td class="door" data-door="{$d}">
    <!-- The host opens a door hiding a goat: an opened door shows it even
         where the car is not known. -->
    <xsl:attribute name="data-content"><xsl:choose><xsl:when test="$car">car</xsl:when><xsl:when test="$hidden or $opened">goat</xsl:when></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-final"><xsl:choose><xsl:when test="$final">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-chosen"><xsl:choose><xsl:when test="$chosen">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-opened"><xsl:choose><xsl:when test="$opened">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    door <xsl:value-of select="$d"/><br/>
    <xsl:choose><xsl:when test="$car">car</xsl:when><xsl:when test="$hidden or $opened">goat</xsl:when></xsl:choose>
    <xsl:choose>
      <xsl:when test="$final and $car"><span class="which">the candidate's door at the end: the car, won</span></xsl:when>
      <xsl:when test="$final"><span class="which">the candidate's door at the end: a goat, lost</span></xsl:when>
      <xsl:when test="$chosen"><span class="which">first chosen</span></xsl:when>
      <xsl:when test="$opened"><span class="which">opened by the host</span></xsl:when>
    </xsl:choose>
  </td>
</xsl:template>
</xsl:stylesheet>

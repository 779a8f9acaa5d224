<?xml version="1.0" encoding="UTF-8"?>
<!-- Banker and Thief: draws a state of the bundled game, given as
     ggp-base's state XML, as the two banks with their bags. The viewer
     shows the true state: the banker's own bank is marked even where the
     thief cannot see it. Each bank carries data-bank, data-bags (empty
     before the split), data-own and data-robbed ("yes" or "no"). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="bankerThief-view">
    <style>
      table.bankerThief-banks td { width: 140px; height: 90px; border: 3px solid #7f8c8d; text-align: center; font: bold 16px sans-serif; }
      table.bankerThief-banks td[data-own="yes"] { border-color: #27ae60; }
      table.bankerThief-banks td[data-robbed="yes"] { background: #f5b7b1; }
    </style>
    <table class="bankerThief-banks"><tr>
      <xsl:call-template name="bank">
        <xsl:with-param name="b" select="'left'"/>
        <xsl:with-param name="bags" select="/state/fact[relation='bags']/argument[1]"/>
      </xsl:call-template>
      <xsl:call-template name="bank">
        <xsl:with-param name="b" select="'right'"/>
        <xsl:with-param name="bags" select="/state/fact[relation='bags']/argument[2]"/>
      </xsl:call-template>
    </tr></table>
    <p class="phase">
      <xsl:choose>
        <xsl:when test="/state/fact[relation='choosing']">Nature chooses the banker's own bank.</xsl:when>
        <xsl:when test="/state/fact[relation='splitting']">The banker splits four bags between the banks.</xsl:when>
        <xsl:when test="/state/fact[relation='robbing']">The thief, who saw the bags go, robs one bank.</xsl:when>
        <xsl:otherwise>The thief robbed the <xsl:value-of select="/state/fact[relation='robbed']/argument[1]"/> bank.</xsl:otherwise>
      </xsl:choose>
    </p>
  </div>
</xsl:template>

<xsl:template name="bank">
  <xsl:param name="b"/>
  <xsl:param name="bags"/>
  <td class="bank" data-bank="{$b}" data-bags="{$bags}">
    <xsl:attribute name="data-own"><xsl:choose><xsl:when test="/state/fact[relation='own' and argument[1]=$b]">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-robbed"><xsl:choose><xsl:when test="/state/fact[relation='robbed' and argument[1]=$b]">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:value-of select="$b"/> bank<br/>
    <xsl:if test="/state/fact[relation='own' and argument[1]=$b]">the banker's own<br/></xsl:if>
    <xsl:if test="$bags != ''"><xsl:value-of select="$bags"/> bags</xsl:if>
  </td>
</xsl:template>
</xsl:stylesheet>

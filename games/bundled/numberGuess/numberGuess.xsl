<?xml version="1.0" encoding="UTF-8"?>
<!-- Number Guessing: draws a state of the bundled game, given as ggp-base's
     state XML, as the numbers 1 to 8 in a row. The viewer shows the true
     state: the secret is marked even where the guesser cannot see it. Each
     number carries data-number, data-secret and data-guessed ("yes" or
     "no"); the line below says how many questions were asked. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="numberGuess-view">
    <style>
      table.numberGuess-row td { width: 44px; height: 44px; border: 2px solid #555; text-align: center; font: bold 20px sans-serif; }
      table.numberGuess-row td[data-secret="yes"] { background: #f9e79f; }
      table.numberGuess-row td[data-guessed="yes"] { outline: 4px solid #2980b9; }
    </style>
    <table class="numberGuess-row"><tr>
      <xsl:call-template name="number"><xsl:with-param name="n" select="1"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="2"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="3"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="4"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="5"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="6"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="7"/></xsl:call-template>
      <xsl:call-template name="number"><xsl:with-param name="n" select="8"/></xsl:call-template>
    </tr></table>
    <p class="questions">
      <xsl:choose>
        <xsl:when test="/state/fact[relation='picking']">Nature picks the secret number.</xsl:when>
        <xsl:otherwise>Questions asked: <b><xsl:value-of select="/state/fact[relation='asked']/argument[1]"/></b> of 3.</xsl:otherwise>
      </xsl:choose>
      <xsl:if test="/state/fact[relation='guessed']">
        <xsl:choose>
          <xsl:when test="/state/fact[relation='guessed']/argument[1] = /state/fact[relation='secret']/argument[1]"> The guess was right.</xsl:when>
          <xsl:otherwise> The guess was wrong.</xsl:otherwise>
        </xsl:choose>
      </xsl:if>
    </p>
  </div>
</xsl:template>

<xsl:template name="number">
  <xsl:param name="n"/>
  <td class="number" data-number="{$n}">
    <xsl:attribute name="data-secret"><xsl:choose><xsl:when test="/state/fact[relation='secret' and argument[1]=$n]">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:attribute name="data-guessed"><xsl:choose><xsl:when test="/state/fact[relation='guessed' and argument[1]=$n]">yes</xsl:when><xsl:otherwise>no</xsl:otherwise></xsl:choose></xsl:attribute>
    <xsl:value-of select="$n"/>
  </td>
</xsl:template>
</xsl:stylesheet>

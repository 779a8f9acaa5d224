<?xml version="1.0" encoding="UTF-8"?>
<!-- Kuhn Poker: draws a state of the bundled game, given as ggp-base's state
     XML: both hands as they truly are (each player sees only its own in
     play) and the betting line. Each hand carries data-player and
     data-card. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="kuhnPoker-view">
    <style>
      div.kuhnPoker-card { display: inline-block; width: 70px; height: 100px; margin: 6px; border: 2px solid #333; border-radius: 8px; background: #fff; text-align: center; font: bold 16px sans-serif; padding-top: 8px; }
    </style>
    <xsl:if test="/state/fact[relation='dealing']"><p>dealing</p></xsl:if>
    <xsl:for-each select="/state/fact[relation='holds']">
      <div class="kuhnPoker-card hand" data-player="{argument[1]}" data-card="{argument[2]}">
        <xsl:value-of select="argument[1]"/><br/><br/><xsl:value-of select="argument[2]"/>
      </div>
    </xsl:for-each>
    <xsl:if test="/state/fact[relation='line']"><p>betting: <b><xsl:value-of select="/state/fact[relation='line']/argument[1]"/></b></p></xsl:if>
  </div>
</xsl:template>
</xsl:stylesheet>

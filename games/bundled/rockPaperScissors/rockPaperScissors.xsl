<?xml version="1.0" encoding="UTF-8"?>
<!-- Rock-Paper-Scissors: draws a state of the bundled game, given as
     ggp-base's state XML, as a scoreboard. Each score carries data-player
     and data-score. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="rps-view">
    <style>
      table.rps-score { border-collapse: collapse; }
      table.rps-score td, table.rps-score th { border: 1px solid #999; padding: 6px 16px; font: bold 20px sans-serif; text-align: center; }
    </style>
    <p>rounds played: <b><xsl:value-of select="/state/fact[relation='round']/argument[1]"/></b> of 3</p>
    <table class="rps-score">
      <tr><xsl:for-each select="/state/fact[relation='score']"><th><xsl:value-of select="argument[1]"/></th></xsl:for-each></tr>
      <tr><xsl:for-each select="/state/fact[relation='score']"><td class="score" data-player="{argument[1]}" data-score="{argument[2]}"><xsl:value-of select="argument[2]"/></td></xsl:for-each></tr>
    </table>
  </div>
</xsl:template>
</xsl:stylesheet>

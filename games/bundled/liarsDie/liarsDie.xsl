<?xml version="1.0" encoding="UTF-8"?>
<!-- Liar's Die: draws a state of the bundled game, given as ggp-base's state
     XML: the die as it truly lies (only the roller sees it in play), the
     last announcement, the roller and, at the end, the loser. The die
     carries data-die, the announcement data-claim. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <xsl:variable name="die" select="/state/fact[relation='die']/argument[1]"/>
  <div class="liarsDie-view">
    <style>
      div.liarsDie-die { display: inline-block; width: 64px; height: 64px; border: 3px solid #333; border-radius: 10px; font: bold 40px sans-serif; text-align: center; line-height: 64px; background: #fff; }
      table.liarsDie-info td { padding: 2px 10px; font: 16px sans-serif; }
    </style>
    <div class="liarsDie-die" data-die="{$die}"><xsl:value-of select="$die"/></div>
    <table class="liarsDie-info">
      <tr><td>phase</td><td><b><xsl:value-of select="/state/fact[relation='phase']/argument[1]"/></b></td></tr>
      <tr><td>roller</td><td><b><xsl:value-of select="/state/fact[relation='roller']/argument[1]"/></b></td></tr>
      <tr><td>announced</td><td class="claim" data-claim="{/state/fact[relation='claim']/argument[1]}"><b><xsl:value-of select="/state/fact[relation='claim']/argument[1]"/></b></td></tr>
      <xsl:if test="/state/fact[relation='loser']"><tr><td>loser</td><td><b><xsl:value-of select="/state/fact[relation='loser']/argument[1]"/></b></td></tr></xsl:if>
    </table>
  </div>
</xsl:template>
</xsl:stylesheet>

<?xml version="1.0" encoding="UTF-8"?>
<!-- Nim: draws a state of the bundled nim game, given as ggp-base's state
     XML, as its heaps of sticks. Each heap carries data-heap and data-count. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>
<!-- over is "true" for the last state of a finished match, which has no one to move. -->
<xsl:param name="over"/>

<xsl:template match="/">
  <div class="nim-view">
    <style>
      table.nim-heaps td { padding: 4px 10px; font: bold 16px sans-serif; }
      .nim-sticks { letter-spacing: 6px; color: #8a5a16; font-size: 26px; }
    </style>
    <table class="nim-heaps">
      <xsl:for-each select="/state/fact[relation='heap']">
        <xsl:sort select="argument[1]"/>
        <tr class="heap" data-heap="{argument[1]}" data-count="{argument[2]}">
          <td>heap <xsl:value-of select="argument[1]"/></td>
          <td class="nim-sticks"><xsl:value-of select="substring('||||||||||||||||||||', 1, argument[2])"/></td>
          <td><xsl:value-of select="argument[2]"/></td>
        </tr>
      </xsl:for-each>
    </table>
    <xsl:if test="not($over = 'true')"><p class="control">to move: <b><xsl:value-of select="/state/fact[relation='control']/argument[1]"/></b></p></xsl:if>
  </div>
</xsl:template>
</xsl:stylesheet>

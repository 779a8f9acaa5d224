<?xml version="1.0" encoding="UTF-8"?>
<!-- Tower of Hanoi: draws a state of the bundled hanoi game, given as
     ggp-base's state XML, as three pegs with their discs, the largest at
     the bottom. Each disc carries data-disc and data-peg. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html"/>

<xsl:template match="/">
  <div class="hanoi-view">
    <style>
      .hanoi-pegs { display: flex; gap: 16px; align-items: flex-end; }
      .hanoi-peg { width: 130px; height: 150px; display: flex; flex-direction: column; justify-content: flex-end; align-items: center; border-bottom: 6px solid #6b4f2a; position: relative; }
      .hanoi-disc { height: 20px; margin-top: 3px; border-radius: 6px; background: #d9822b; color: #fff; font: bold 12px sans-serif; text-align: center; line-height: 20px; }
      .hanoi-name { text-align: center; font: bold 14px sans-serif; margin-top: 4px; }
    </style>
    <div class="hanoi-pegs">
      <xsl:call-template name="peg"><xsl:with-param name="p" select="'a'"/></xsl:call-template>
      <xsl:call-template name="peg"><xsl:with-param name="p" select="'b'"/></xsl:call-template>
      <xsl:call-template name="peg"><xsl:with-param name="p" select="'c'"/></xsl:call-template>
    </div>
    <p class="step">steps taken: <b><xsl:value-of select="/state/fact[relation='step']/argument[1]"/></b></p>
  </div>
</xsl:template>

<xsl:template name="peg">
  <xsl:param name="p"/>
  <div>
    <div class="hanoi-peg" data-peg="{$p}">
      <xsl:for-each select="/state/fact[relation='on' and argument[2]=$p]">
        <xsl:sort select="argument[1]" data-type="number"/>
        <div class="hanoi-disc" data-disc="{argument[1]}" data-peg="{$p}" style="width: {20 + argument[1] * 20}px"><xsl:value-of select="argument[1]"/></div>
      </xsl:for-each>
    </div>
    <div class="hanoi-name"><xsl:value-of select="$p"/></div>
  </div>
</xsl:template>
</xsl:stylesheet>

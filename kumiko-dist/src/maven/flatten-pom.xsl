<?xml version="1.0" encoding="UTF-8"?>
<!-- kumiko-junit's POM as the archive's maven/ repository holds it: the POM its shading wrote
     (kumiko-junit/target/dependency-reduced-pom.xml: Kumiko's own modules, Netty, Jackson and
     picocli are inside the jar, every other dependency has its version written out) without the
     parent, which is in no repository a user reaches. groupId and version, and the project's URL,
     licence, developers and SCM, which the module inherits, are copied from the parent POM (the
     parameter parentPom); the build section, properties and test-scope dependencies are left out,
     since a project that depends on the jar reads none of them. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:m="http://maven.apache.org/POM/4.0.0"
                xmlns="http://maven.apache.org/POM/4.0.0"
                exclude-result-prefixes="m">
  <xsl:param name="parentPom"/>
  <xsl:output method="xml" encoding="UTF-8" indent="yes" xmlns:x="http://xml.apache.org/xslt" x:indent-amount="2"/>
  <xsl:strip-space elements="*"/>

  <xsl:variable name="parent" select="document($parentPom)/m:project"/>

  <xsl:template match="@*|node()">
    <xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy>
  </xsl:template>

  <xsl:template match="/m:project">
    <xsl:if test="not($parent/m:groupId) or not($parent/m:version)">
      <xsl:message terminate="yes">flatten-pom.xsl: no groupId or version in <xsl:value-of select="$parentPom"/></xsl:message>
    </xsl:if>
    <xsl:if test="m:parent/m:artifactId != $parent/m:artifactId">
      <xsl:message terminate="yes">flatten-pom.xsl: the parent named is not <xsl:value-of select="$parentPom"/></xsl:message>
    </xsl:if>
    <project xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd"
             xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <modelVersion>4.0.0</modelVersion>
      <groupId><xsl:value-of select="$parent/m:groupId"/></groupId>
      <xsl:copy-of select="m:artifactId"/>
      <version><xsl:value-of select="$parent/m:version"/></version>
      <xsl:copy-of select="m:name"/>
      <xsl:copy-of select="m:description"/>
      <xsl:apply-templates select="$parent/m:url"/>
      <xsl:apply-templates select="$parent/m:inceptionYear"/>
      <xsl:apply-templates select="$parent/m:licenses"/>
      <xsl:apply-templates select="$parent/m:developers"/>
      <xsl:apply-templates select="$parent/m:scm"/>
      <dependencies>
        <xsl:apply-templates select="m:dependencies/m:dependency[not(m:scope = 'test')]"/>
      </dependencies>
    </project>
  </xsl:template>

  <!-- The parent POM's indentation (strip-space does not reach a document() read). -->
  <xsl:template match="text()[not(normalize-space())]"/>

  <!-- The inheritance attributes mean nothing without children. -->
  <xsl:template match="m:scm/@*"/>
</xsl:stylesheet>

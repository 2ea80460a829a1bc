package io.mailbox.server.ear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The EARs are well-formed: application.xml names the connector, the services and both wars; every
 * module it names is in the archive; the console war does not carry a second copy of the services.
 * The WildFly EAR is the same without SmallRye, which WildFly provides.
 */
class EarLayoutIT {
  private static final Path EAR = Path.of(System.getProperty("mailbox.ear"));
  private static final Path WILDFLY_EAR =
      EAR.resolveSibling(EAR.getFileName().toString().replace(".ear", "-wildfly.ear"));

  private static Document applicationXml(JarFile ear) throws Exception {
    ZipEntry entry = ear.getEntry("META-INF/application.xml");
    assertThat(entry).as("META-INF/application.xml").isNotNull();
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    try (InputStream in = ear.getInputStream(entry)) {
      return factory.newDocumentBuilder().parse(in);
    }
  }

  private static List<String> texts(Document document, String tag) {
    NodeList nodes = document.getElementsByTagNameNS("*", tag);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      texts.add(nodes.item(i).getTextContent().strip());
    }
    return texts;
  }

  @Test
  void applicationXmlNamesEveryModuleAndEveryModuleIsInTheArchive() throws Exception {
    try (JarFile ear = new JarFile(EAR.toFile())) {
      Document application = applicationXml(ear);

      assertThat(texts(application, "connector")).containsExactly("mailbox-connector.rar");
      assertThat(texts(application, "ejb")).containsExactly("mailbox-services.jar");
      assertThat(texts(application, "web-uri"))
          .containsExactlyInAnyOrder("console.war", "orders-app.war");
      assertThat(texts(application, "context-root"))
          .containsExactlyInAnyOrder("/console", "/orders-app");
      assertThat(texts(application, "initialize-in-order")).containsExactly("true");
      for (String module :
          List.of(
              "mailbox-connector.rar", "mailbox-services.jar", "console.war", "orders-app.war")) {
        assertThat(ear.getEntry(module)).as(module).isNotNull();
      }
      Element root = application.getDocumentElement();
      assertThat(root.getAttribute("version")).isEqualTo("10");
    }
  }

  @Test
  void theConsoleWarInTheEarLeavesTheServicesToTheEjbModule() throws Exception {
    try (JarFile console = nestedArchive("console.war")) {
      List<String> libs =
          console.stream()
              .map(ZipEntry::getName)
              .filter(n -> n.startsWith("WEB-INF/lib/"))
              .toList();
      assertThat(libs).as("Vaadin ships inside the war").anyMatch(n -> n.contains("flow-server"));
      assertThat(libs)
          .as("no second copy of the EJB module")
          .noneMatch(n -> n.contains("ejb-module"));
      assertThat(console.getEntry("WEB-INF/beans.xml")).isNotNull();
    }
  }

  /**
   * The example war in the EAR carries only its own classes: a second copy of the services would
   * make every EJB ambiguous (Payara Server refuses the EAR: "there are [2] ejbs in the application
   * with interface JtaInboxTransactions", measured), and SmallRye, the channel connector, the
   * channel configuration and sign-in belong in lib/ (docs/servers.md).
   */
  @Test
  void theExampleWarLeavesServicesConnectorAndSmallRyeToTheEar() throws Exception {
    try (JarFile orders = nestedArchive("orders-app.war")) {
      assertThat(orders.stream().map(ZipEntry::getName))
          .noneMatch(n -> n.startsWith("WEB-INF/lib/") && n.endsWith(".jar"));
    }
    try (JarFile ear = new JarFile(EAR.toFile())) {
      List<String> lib =
          ear.stream().map(ZipEntry::getName).filter(n -> n.startsWith("lib/")).toList();
      assertThat(lib)
          .anyMatch(n -> n.contains("messaging-connector"))
          .anyMatch(n -> n.contains("smallrye-reactive-messaging-provider"))
          .anyMatch(n -> n.contains("orders-app") && n.endsWith("ear-config.jar"))
          .anyMatch(n -> n.contains("console-security"))
          .noneMatch(n -> n.contains("ejb-module"))
          .noneMatch(n -> n.contains("jakarta.enterprise.cdi-api"));
    }
  }

  /**
   * The adapter's classes and libraries are in lib/, once: a lib/ jar (the channel connector)
   * cannot see classes inside an embedded .rar, and two copies would be two different types. The
   * .rar keeps its descriptor; the EAR brings its connection factory for Payara Server.
   */
  @Test
  void theConnectorInsideTheEarIsItsDescriptorWithItsClassesInLib() throws Exception {
    try (JarFile connector = nestedArchive("mailbox-connector.rar")) {
      assertThat(connector.getEntry("META-INF/ra.xml")).isNotNull();
      assertThat(connector.stream().map(ZipEntry::getName)).noneMatch(n -> n.endsWith(".jar"));
    }
    try (JarFile ear = new JarFile(EAR.toFile())) {
      List<String> lib =
          ear.stream().map(ZipEntry::getName).filter(n -> n.startsWith("lib/")).toList();
      assertThat(lib)
          .anyMatch(n -> n.contains("connector-core"))
          .as("every shipped provider, found there through META-INF/services")
          .anyMatch(n -> n.contains("provider-mem"))
          .anyMatch(n -> n.contains("provider-file"))
          .anyMatch(n -> n.contains("provider-jdbc"))
          .anyMatch(n -> n.contains("provider-amqp"))
          .anyMatch(n -> n.contains("amqp-client"));
      assertThat(ear.getEntry("META-INF/glassfish-resources.xml")).isNotNull();
    }
    try (JarFile console = nestedArchive("console.war")) {
      assertThat(console.stream().map(ZipEntry::getName))
          .as("sign-in is the EAR's (lib/), for every web module")
          .noneMatch(n -> n.contains("console-security"));
    }
  }

  /**
   * WildFly's Reactive Messaging subsystem refuses an application that brings SmallRye
   * (WFLYRXMESS0005): its EAR leaves out exactly SmallRye's dependency tree and keeps everything
   * else, byte for byte the same modules.
   */
  @Test
  void theWildFlyEarIsTheEarWithoutSmallRye() throws Exception {
    try (JarFile ear = new JarFile(EAR.toFile());
        JarFile wildfly = new JarFile(WILDFLY_EAR.toFile())) {
      List<String> all = ear.stream().map(ZipEntry::getName).toList();
      List<String> kept = wildfly.stream().map(ZipEntry::getName).toList();
      assertThat(kept)
          .noneMatch(n -> n.startsWith("lib/io.smallrye") || n.startsWith("lib/io.vertx"))
          .noneMatch(n -> n.startsWith("lib/io.netty") || n.contains("reactive-streams"))
          .contains("META-INF/jboss-deployment-structure.xml", "mailbox-connector.rar")
          .contains("mailbox-services.jar", "console.war", "orders-app.war");
      assertThat(all).containsAll(kept);
      assertThat(all.stream().filter(n -> !n.startsWith("lib/")).toList())
          .as("everything outside lib/ is in both")
          .containsExactlyInAnyOrderElementsOf(
              kept.stream().filter(n -> !n.startsWith("lib/")).toList());
      assertThat(kept.stream().filter(n -> n.startsWith("lib/")))
          .anyMatch(n -> n.contains("messaging-connector"))
          .anyMatch(n -> n.contains("connector-core"))
          .anyMatch(n -> n.contains("provider-jdbc"))
          .anyMatch(n -> n.contains("console-security"))
          .anyMatch(n -> n.contains("amqp-client"))
          .anyMatch(n -> n.endsWith("ear-config.jar"));
      for (String module : List.of("mailbox-services.jar", "console.war", "orders-app.war")) {
        assertThat(wildfly.getEntry(module).getCrc())
            .as(module)
            .isEqualTo(ear.getEntry(module).getCrc());
      }
    }
  }

  /** Copies a module out of the EAR into a temporary file that is deleted when the JVM exits. */
  private static JarFile nestedArchive(String name) throws Exception {
    Path copy = Files.createTempFile("ear-module", name);
    copy.toFile().deleteOnExit();
    try (JarFile ear = new JarFile(EAR.toFile());
        InputStream in = ear.getInputStream(ear.getEntry(name))) {
      Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
    }
    return new JarFile(copy.toFile());
  }
}

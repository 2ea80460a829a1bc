package io.mailbox.connector.jca;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.Setting;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every adapter setting is declared once — {@link AdapterSettings#DECLARED} and each provider
 * factory's {@link ProviderFactory#settings()} — and {@code ra.xml}, the adapter's bean properties
 * with their initial values, and docs/configuration.md say the same.
 */
class AdapterPropertiesTest {
  private static final Path RA_XML = Path.of("src/main/rar/META-INF/ra.xml");
  private static final Path DOCS = Path.of("../docs/configuration.md");

  private static Map<String, Setting> declared() {
    Map<String, Setting> declared = new LinkedHashMap<>();
    List<Setting> all = new ArrayList<>(AdapterSettings.DECLARED);
    for (ProviderFactory<?> factory : ProviderFactories.discover()) {
      all.addAll(factory.settings());
    }
    for (Setting setting : all) {
      assertThat(declared.put(setting.property(), setting))
          .as(setting.property() + " is declared twice")
          .isNull();
    }
    return declared;
  }

  @Test
  void raXmlDeclaresEverySettingWithItsTypeAndDefault() throws Exception {
    Map<String, String[]> raXml = raXmlProperties();
    Map<String, Setting> declared = declared();

    assertThat(raXml.keySet()).containsExactlyInAnyOrderElementsOf(declared.keySet());
    for (Setting setting : declared.values()) {
      String[] typeAndValue = raXml.get(setting.property());
      assertThat(typeAndValue[0]).as(setting.property()).isEqualTo(setting.type().getName());
      assertThat(typeAndValue[1]).as(setting.property()).isEqualTo(setting.defaultValue());
    }
  }

  @Test
  void theAdaptersBeanPropertiesAreTheDeclaredOnesWithTheDeclaredDefaults() throws Exception {
    Map<String, Setting> declared = declared();
    MailboxResourceAdapter fresh = new MailboxResourceAdapter();
    List<String> beans = new ArrayList<>();
    for (PropertyDescriptor bean :
        Introspector.getBeanInfo(AdapterProperties.class, Object.class).getPropertyDescriptors()) {
      assertThat(bean.getWriteMethod()).as(bean.getName() + " has a setter").isNotNull();
      beans.add(bean.getName());
      Setting setting = declared.get(bean.getName());
      assertThat(setting).as(bean.getName() + " is declared").isNotNull();
      assertThat(bean.getPropertyType()).as(bean.getName()).isEqualTo(setting.type());
      assertThat(String.valueOf(bean.getReadMethod().invoke(fresh)))
          .as("initial value of " + bean.getName())
          .isEqualTo(setting.defaultValue());
    }
    // A provider's setting without a bean property is read from providerSettings; the shipped
    // ones all have one, so a server's admin tools show them.
    assertThat(beans).containsExactlyInAnyOrderElementsOf(declared.keySet());
  }

  @Test
  void docsListEverySettingWithItsDefault() throws Exception {
    String docs = Files.readString(DOCS);
    String section =
        docs.substring(
            docs.indexOf("## Resource adapter"), docs.indexOf("### MDB activation properties"));
    for (Setting setting : declared().values()) {
      String row =
          section
              .lines()
              .filter(
                  line ->
                      line.startsWith("| `" + setting.property() + "`")
                          || line.contains(" / `" + setting.property() + "`"))
              .findFirst()
              .orElseThrow(() -> new AssertionError(setting.property() + " is not in " + DOCS));
      if (!setting.defaultValue().isEmpty()) {
        assertThat(row).as(setting.property()).contains("`" + setting.defaultValue() + "`");
      }
    }
  }

  /** The adapter's own config-properties (not those of its connection definitions): type, value. */
  private static Map<String, String[]> raXmlProperties() throws Exception {
    String xml = Files.readString(RA_XML);
    int start = xml.indexOf("<resourceadapter>");
    int end = xml.indexOf("<outbound-resourceadapter>");
    Matcher property =
        Pattern.compile(
                "<config-property>.*?<config-property-name>(.*?)</config-property-name>\\s*"
                    + "<config-property-type>(.*?)</config-property-type>\\s*"
                    + "<config-property-value>(.*?)</config-property-value>",
                Pattern.DOTALL)
            .matcher(xml.substring(start, end));
    Map<String, String[]> found = new LinkedHashMap<>();
    while (property.find()) {
      found.put(
          property.group(1).strip(),
          new String[] {property.group(2).strip(), property.group(3).strip()});
    }
    return found;
  }
}

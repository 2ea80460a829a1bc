package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The array-backed headers behave as the {@code TreeMap} they replaced: same contents, same order,
 * equal and hashed alike, read-only; and a message never sees a later write of the builder it came
 * from, or of a builder made from it (the arrays are shared until a write copies them).
 */
class SortedHeadersTest {
  private static final String[] NAMES = {"a", "b", "mbx-round", "mbx-attempt", "type", "Z", "é"};

  @Test
  void randomWritesMatchATreeMapAndNoBuiltMessageChangesAfterwards() {
    Random random = new Random(21);
    for (int run = 0; run < 2_000; run++) {
      MailMessage.Builder builder = MailMessage.to("mem:a@b").body("");
      TreeMap<String, String> model = new TreeMap<>();
      List<MailMessage> built = new ArrayList<>();
      List<Map<String, String>> expected = new ArrayList<>();
      for (int step = 0; step < 30; step++) {
        String name = NAMES[random.nextInt(NAMES.length)] + random.nextInt(3);
        switch (random.nextInt(4)) {
          case 0, 1 -> {
            String value = "v" + random.nextInt(5);
            builder.header(name, value);
            model.put(name, value);
          }
          case 2 -> {
            builder.removeHeader(name);
            model.remove(name);
          }
          default -> {
            MailMessage message = builder.build();
            built.add(message);
            expected.add(new TreeMap<>(model));
            builder = random.nextBoolean() ? builder : message.toBuilder();
          }
        }
      }
      MailMessage last = builder.build();
      assertThat(last.headers()).isEqualTo(model).hasSameHashCodeAs(model);
      assertThat(new ArrayList<>(last.headers().keySet()))
          .isEqualTo(new ArrayList<>(model.keySet()));
      for (int i = 0; i < built.size(); i++) {
        assertThat(built.get(i).headers()).isEqualTo(expected.get(i));
      }
    }
  }

  @Test
  void lookupsOfOtherTypesOrAbsentNamesFindNothing() {
    Map<String, String> headers =
        MailMessage.to("mem:a@b").body("").header("k", "v").build().headers();

    assertThat(headers.get(42)).isNull();
    assertThat(headers.containsKey(null)).isFalse();
    assertThat(headers.get("K")).isNull();
    assertThat(headers).containsEntry("k", "v").hasSize(1);
  }

  @Test
  void noViewOfTheHeadersCanChangeThem() {
    Map<String, String> headers =
        MailMessage.to("mem:a@b").body("").header("k", "v").header("l", "w").build().headers();

    assertThatThrownBy(() -> headers.remove("k")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(headers::clear).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> headers.entrySet().iterator().next().setValue("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> headers.keySet().removeIf(name -> true))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(headers).containsOnlyKeys("k", "l");
  }
}

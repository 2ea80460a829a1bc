package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailAddress;
import org.junit.jupiter.api.Test;

class SubjectNamesTest {
  private final SubjectNames names = new SubjectNames("mailbox");

  @Test
  void anAddressIsOneTokenUnderThePrefixAndReadsBack() {
    MailAddress placed = MailAddress.parse("nats:orders@shop/placed");
    assertThat(names.subject(placed)).isEqualTo("mailbox.orders_40shop_2Fplaced");
    assertThat(names.address("mailbox.orders_40shop_2Fplaced")).contains(placed);
    assertThat(names.address("mailbox.orders_40shop_2Fplaced.parked")).isEmpty();
    assertThat(names.address("other.orders_40shop")).isEmpty();
  }

  @Test
  void consumerNamesEscapeWhatNatsRefusesAndUnderscoreSoTheyNeverCollide() {
    MailAddress dotted = MailAddress.parse("nats:orders.eu@shop");
    MailAddress underscored = MailAddress.parse("nats:orders_2eeu@shop");
    String a = names.consumer("billing.eu", dotted);
    String b = names.consumer("billing.eu", underscored);
    assertThat(a).doesNotContain(".", "*", ">", "/", "\\", " ");
    assertThat(a).isNotEqualTo(b);
    assertThat(names.consumer("a b", dotted)).isEqualTo("a_20b-orders_2Eeu_40shop");
  }

  @Test
  void anAddressTooLongForTheServerIsRefusedWithACode() {
    MailAddress huge = MailAddress.parse("nats:" + "x".repeat(250) + "@shop");
    assertThatThrownBy(() -> names.subject(huge)).hasMessageStartingWith("MBX-1001");
  }

  @Test
  void aConsumersFilterCoversASubjectTokenByTokenWithWildcards() {
    String subject = "mailbox.orders_40shop_2Fplaced";

    assertThat(SubjectNames.covers(subject, subject)).isTrue();
    assertThat(SubjectNames.covers("mailbox.*", subject)).isTrue();
    assertThat(SubjectNames.covers("mailbox.>", subject)).isTrue();
    assertThat(SubjectNames.covers(">", subject)).isTrue();
    assertThat(SubjectNames.covers("mailbox", subject)).isFalse();
    assertThat(SubjectNames.covers("mailbox.*.parked", subject)).isFalse();
    assertThat(SubjectNames.covers("mailbox.*", subject + ".parked")).isFalse();
    assertThat(SubjectNames.covers("mailbox.>", "mailbox")).isFalse();
    assertThat(SubjectNames.covers("other.*", subject)).isFalse();
  }
}

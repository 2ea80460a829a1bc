package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MailAddressTest {

  @Test
  void opaqueAndHierarchicalFormsNameTheSameMailbox() {
    MailAddress opaque = MailAddress.parse("mem:orders@shop/inbox");
    MailAddress hierarchical = MailAddress.parse("mem://orders@shop/inbox");

    assertThat(opaque).isEqualTo(hierarchical).hasSameHashCodeAs(hierarchical);
    assertThat(opaque.toString()).isEqualTo("mem://orders@shop/inbox");
  }

  @Test
  void schemeAndHostAreCaseInsensitiveButUserAndPathAreNot() {
    MailAddress address = MailAddress.parse("MEM:Orders@Shop.Example/Inbox");

    assertThat(address.scheme()).isEqualTo("mem");
    assertThat(address.host()).isEqualTo("shop.example");
    assertThat(address.user()).isEqualTo("Orders");
    assertThat(address.path()).isEqualTo("Inbox");
  }

  @Test
  void pathIsOptionalAndATrailingSlashIsDropped() {
    assertThat(MailAddress.parse("mem:a@b").mailbox()).isEqualTo("a@b");
    assertThat(MailAddress.parse("mem:a@b/").mailbox()).isEqualTo("a@b");
    assertThat(MailAddress.parse("mem:a@b/c/d/").path()).isEqualTo("c/d");
  }

  @Test
  void queryIsRefusedWithAHintToUseThePath() {
    assertThatThrownBy(() -> MailAddress.parse("mem:sales@example.com/inbox?thread=1"))
        .isInstanceOf(InvalidAddressException.class)
        .hasMessageStartingWith("MBX-1002")
        .hasMessageContaining("mem:sales@example.com/inbox/thread-1")
        .extracting(e -> ((MailboxException) e).errorCode())
        .isEqualTo(ErrorCode.ADDRESS_HAS_QUERY_OR_FRAGMENT);
  }

  @Test
  void fragmentIsRefused() {
    assertThatThrownBy(() -> MailAddress.parse("mem:a@b/c#x")).hasMessageStartingWith("MBX-1002");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "orders@shop",
        ":orders@shop",
        "1mem:orders@shop",
        "mem:shop",
        "mem:@shop",
        "mem:or ders@shop",
        "mem:orders@",
        "mem:orders@-shop",
        "mem:orders@shop//x",
        "mem:orders@shop/./x",
        "mem:orders@shop/../x",
        "mem:orders@shop/a b"
      })
  void malformedAddressesAreRefusedWithTheirOwnCode(String text) {
    assertThatThrownBy(() -> MailAddress.parse(text))
        .isInstanceOf(InvalidAddressException.class)
        .hasMessageStartingWith("MBX-1001");
  }

  @Test
  void nullIsRefusedNotDereferenced() {
    assertThatThrownBy(() -> MailAddress.parse(null)).hasMessageStartingWith("MBX-1001");
  }

  @Test
  void percentEncodedCharactersAreAccepted() {
    assertThat(MailAddress.parse("mem:a@b/_%E6%AD%BB").path()).isEqualTo("_%E6%AD%BB");
  }

  @Test
  void addressesSortByCanonicalForm() {
    assertThat(MailAddress.parse("mem:b@x")).isGreaterThan(MailAddress.parse("mem://a@x/z"));
  }
}

package io.mailbox.console.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import jakarta.ejb.EJBException;
import jakarta.json.stream.JsonParsingException;
import org.junit.jupiter.api.Test;

class ApiExceptionMapperTest {
  @Test
  void aKernelRefusalInsideAnEjbExceptionKeepsItsCodeButNotTheRefusedValue() {
    EJBException wrapped =
        new EJBException(
            new MailboxException(
                ErrorCode.MALFORMED_ADDRESS, "Address 'secret\r\nforged' is malformed"));

    ApiRefusal refusal = ApiExceptionMapper.refusalFor(wrapped);

    assertThat(refusal.status()).isEqualTo(400);
    assertThat(refusal.code()).isEqualTo("MBX-1001");
    assertThat(refusal.getMessage()).doesNotContain("secret").doesNotContain("forged");
  }

  @Test
  void unreadableJsonAnywhereInTheCauseChainIsAMalformedBody() {
    ApiRefusal refusal =
        ApiExceptionMapper.refusalFor(
            new IllegalStateException(new JsonParsingException("Unexpected char 'x'", null)));

    assertThat(refusal.status()).isEqualTo(400);
    assertThat(refusal.code()).isEqualTo(ApiRefusal.MALFORMED_BODY);
    assertThat(refusal.getMessage()).doesNotContain("'x'");
  }

  @Test
  void anythingElseIsAServerFailureThatNamesNoInternalException() {
    ApiRefusal refusal =
        ApiExceptionMapper.refusalFor(new ClassCastException("JsonArray cannot be cast"));

    assertThat(refusal.status()).isEqualTo(500);
    assertThat(refusal.code()).isEqualTo(ApiRefusal.INTERNAL);
    assertThat(refusal.getMessage()).doesNotContain("Cast").doesNotContain("Json");
  }

  @Test
  void everyStatusTheContainerAnswersHasItsOwnStableCode() {
    assertThat(ApiExceptionMapper.forStatus(401).code()).isEqualTo("MBX-4001");
    assertThat(ApiExceptionMapper.forStatus(403).code()).isEqualTo("MBX-4003");
    assertThat(ApiExceptionMapper.forStatus(404).code()).isEqualTo("MBX-4004");
    assertThat(ApiExceptionMapper.forStatus(405).code()).isEqualTo("MBX-4005");
    assertThat(ApiExceptionMapper.forStatus(413).code()).isEqualTo("MBX-4013");
    assertThat(ApiExceptionMapper.forStatus(415).code()).isEqualTo("MBX-4015");
    assertThat(ApiExceptionMapper.forStatus(502).status()).isEqualTo(500);
  }

  @Test
  void aRefusalIsLoggedAsOneLineWithControlCharactersEscaped() {
    String line =
        ApiExceptionMapper.logLine(
            ApiRefusal.invalid("limit must be 1 to 1000"),
            "GET /console/api/audit\r\nFAKE refused\u2028x\u001b[31m");

    assertThat(line)
        .startsWith("MBX-4022 refused GET /console/api/audit")
        .doesNotContain("\r")
        .doesNotContain("\n")
        .doesNotContain("\u2028")
        .doesNotContain("\u001b")
        .contains("\\u000d\\u000a");
  }
}

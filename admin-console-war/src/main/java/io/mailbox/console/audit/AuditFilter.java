package io.mailbox.console.audit;

import io.mailbox.ejb.audit.AuditEntry;
import java.util.Locale;

/**
 * Which audit entries a filter text keeps: every word must appear in who, what, on what or result.
 */
final class AuditFilter {
  private AuditFilter() {}

  static boolean matches(AuditEntry entry, String filter) {
    if (filter == null || filter.isBlank()) {
      return true;
    }
    String haystack =
        String.join(
                " ",
                entry.actor(),
                entry.action(),
                entry.target() == null ? "" : entry.target(),
                resultLabel(entry.result()))
            .toLowerCase(Locale.ROOT);
    for (String word : filter.toLowerCase(Locale.ROOT).strip().split("\\s+")) {
      if (!haystack.contains(word)) {
        return false;
      }
    }
    return true;
  }

  static String resultLabel(AuditEntry.Result result) {
    return result.name().toLowerCase(Locale.ROOT);
  }
}

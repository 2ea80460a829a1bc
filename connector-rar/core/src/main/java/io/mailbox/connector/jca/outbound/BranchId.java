package io.mailbox.connector.jca.outbound;

import java.util.Arrays;
import java.util.Base64;
import javax.transaction.xa.Xid;

/**
 * A transaction branch's identity as the prepare log keeps it: format id, global transaction id and
 * branch qualifier, compared by value. The transaction manager's own {@link Xid} classes need not
 * implement {@code equals}, and after a restart the only Xids left are the ones read back from the
 * log, so every comparison goes through this type.
 */
final class BranchId implements Xid {
  private static final Base64.Encoder KEY_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final int formatId;
  private final byte[] globalTransactionId;
  private final byte[] branchQualifier;

  BranchId(int formatId, byte[] globalTransactionId, byte[] branchQualifier) {
    if (globalTransactionId == null
        || branchQualifier == null
        || globalTransactionId.length > MAXGTRIDSIZE
        || branchQualifier.length > MAXBQUALSIZE) {
      throw new IllegalArgumentException("not an XA branch identifier");
    }
    this.formatId = formatId;
    this.globalTransactionId = globalTransactionId.clone();
    this.branchQualifier = branchQualifier.clone();
  }

  /** The value of any Xid; the same instance when it already is one. */
  static BranchId of(Xid xid) {
    if (xid instanceof BranchId id) {
      return id;
    }
    return new BranchId(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
  }

  /** Whether two Xids name the same branch (either may be null). */
  static boolean same(Xid a, Xid b) {
    return a != null && b != null && of(a).equals(of(b));
  }

  /**
   * The branch's name in the log directory: {@code <formatId>.<gtrid>.<bqual>} with both byte
   * strings in unpadded base64url. At most 11 + 86 + 86 + 2 characters, within every file system's
   * 255-byte limit even with a state suffix; hex would not fit (64-byte ids).
   */
  String key() {
    return formatId
        + "."
        + KEY_ENCODER.encodeToString(globalTransactionId)
        + "."
        + KEY_ENCODER.encodeToString(branchQualifier);
  }

  @Override
  public int getFormatId() {
    return formatId;
  }

  @Override
  public byte[] getGlobalTransactionId() {
    return globalTransactionId.clone();
  }

  @Override
  public byte[] getBranchQualifier() {
    return branchQualifier.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BranchId that
        && formatId == that.formatId
        && Arrays.equals(globalTransactionId, that.globalTransactionId)
        && Arrays.equals(branchQualifier, that.branchQualifier);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * formatId + Arrays.hashCode(globalTransactionId))
        + Arrays.hashCode(branchQualifier);
  }

  /** The key: identity only, safe for logs. */
  @Override
  public String toString() {
    return key();
  }
}

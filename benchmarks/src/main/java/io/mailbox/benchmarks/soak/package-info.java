/** The soak command: a million messages per provider, watched for anything that keeps growing. */
package io.mailbox.benchmarks.soak;

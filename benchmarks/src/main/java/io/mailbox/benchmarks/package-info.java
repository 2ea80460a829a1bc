/** JMH benchmarks of the kernel, each measured beside a plain-Java baseline in the same run. */
package io.mailbox.benchmarks;

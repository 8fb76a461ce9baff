@NullMarked
package dev.kumiko.faults.workload;

import org.jspecify.annotations.NullMarked;

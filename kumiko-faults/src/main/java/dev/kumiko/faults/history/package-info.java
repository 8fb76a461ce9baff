@NullMarked
package dev.kumiko.faults.history;

import org.jspecify.annotations.NullMarked;

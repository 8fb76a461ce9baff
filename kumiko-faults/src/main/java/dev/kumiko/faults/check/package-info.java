@NullMarked
package dev.kumiko.faults.check;

import org.jspecify.annotations.NullMarked;

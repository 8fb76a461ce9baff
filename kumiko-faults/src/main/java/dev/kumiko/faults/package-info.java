@NullMarked
package dev.kumiko.faults;

import org.jspecify.annotations.NullMarked;

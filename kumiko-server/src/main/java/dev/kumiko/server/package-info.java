@NullMarked
package dev.kumiko.server;

import org.jspecify.annotations.NullMarked;

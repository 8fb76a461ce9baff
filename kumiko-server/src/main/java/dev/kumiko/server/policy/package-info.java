@NullMarked
package dev.kumiko.server.policy;

import org.jspecify.annotations.NullMarked;

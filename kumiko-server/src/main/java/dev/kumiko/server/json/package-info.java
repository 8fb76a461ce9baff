@NullMarked
package dev.kumiko.server.json;

import org.jspecify.annotations.NullMarked;

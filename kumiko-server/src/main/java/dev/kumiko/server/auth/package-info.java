@NullMarked
package dev.kumiko.server.auth;

import org.jspecify.annotations.NullMarked;

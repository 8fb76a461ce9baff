#!/usr/bin/env bash
# Builds a JRE base image from this machine's own JDK (17 or newer), for building Kumiko's image
# where no image registry can be reached (kumiko-testcontainers' tests, CI): a runtime made by
# jlink, bash and the few commands bin/kumiko and the image's health check run, and the shared
# libraries all of them need (found with ldd), imported with `docker import`. Nothing is
# downloaded. Users build on a public JRE image instead (docker/Dockerfile's default, docs/docker.md).
#
#   bash scripts/docker-test-base.sh [TAG]      # default kumiko-test-jre:17; prints the tag
#
# An image of that tag that already exists is kept (delete it to rebuild). JAVA_HOME names the JDK
# (default: the one `jlink` on PATH belongs to), 17 or newer.
set -euo pipefail

tag="${1:-kumiko-test-jre:17}"
# Every java.* module (java.se) and the jdk.* ones a server or the AWS SDK may load: more than
# Kumiko needs today, so that a new import does not break only the image.
JRE_MODULES="java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.zipfs,jdk.management,jdk.localedata,jdk.naming.dns,jdk.httpserver,jdk.jfr,jdk.net"
# The commands bin/kumiko (a clone's build steps aside) and docker/healthcheck.sh run, and those a
# Dockerfile's RUN steps use; /bin/sh is bash.
COMMANDS="bash sed grep cat cp env find flock head mkdir mktemp mv rm seq sleep stat readlink ln chmod chown ls id tar gzip tr"

note() { printf 'docker-test-base: %s\n' "$*" >&2; }

if docker image inspect "$tag" >/dev/null 2>&1; then
  note "$tag exists, kept"
  printf '%s\n' "$tag"
  exit 0
fi

jdk="${JAVA_HOME:-}"
if [[ -z $jdk ]]; then
  jdk="$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")"
fi
[[ -x $jdk/bin/jlink ]] || { note "no jlink in $jdk (set JAVA_HOME to a JDK)"; exit 1; }
# The jars are built for Java 17 (--release 17), so any JDK from 17 on serves.
feature="$("$jdk/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')"
[[ -n $feature ]] && ((feature >= 17)) || { note "$jdk is not a JDK 17 or newer"; exit 1; }

root="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-base.XXXXXX")"
trap 'rm -rf "$root"' EXIT

# The runtime, without what only a developer reads.
"$jdk/bin/jlink" --add-modules "$JRE_MODULES" --output "$root/opt/java" \
  --strip-debug --no-man-pages --no-header-files --compress=2 >/dev/null

# Copies a file to the same path under the root, following symlinks (the library's real name
# stays reachable under the name the loader asks for).
copy_in() {
  local path="$1"
  [[ -e $root$path ]] && return 0
  mkdir -p "$root$(dirname "$path")"
  cp -L "$path" "$root$path"
}

declare -a binaries=()
for command in $COMMANDS; do
  path="$(command -v "$command")" || { note "no $command on this machine"; exit 1; }
  copy_in "$path"
  binaries+=("$path")
done
# The JRE's own native code.
while IFS= read -r -d '' library; do binaries+=("$library"); done < <(find "$root/opt/java" -name '*.so' -print0)
# RocksDB's JNI library is inside the server jar, so ldd cannot be asked here: the libraries it
# links to are named (libstdc++, libgcc_s and glibc's libpthread, libdl, librt, libm).
for library in /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /lib/x86_64-linux-gnu/libgcc_s.so.1 \
  /lib/x86_64-linux-gnu/libpthread.so.0 /lib/x86_64-linux-gnu/libdl.so.2 /lib/x86_64-linux-gnu/librt.so.1 \
  /lib/x86_64-linux-gnu/libm.so.6; do
  [[ -e $library ]] || { note "no $library on this machine"; exit 1; }
  copy_in "$library"
  binaries+=("$library")
done
for binary in "${binaries[@]}"; do
  [[ -e $binary ]] || continue
  # ldd lines: "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)".
  while read -r library; do
    copy_in "$library"
  done < <(ldd "$binary" 2>/dev/null | sed -n -e 's|.*=> \(/[^ ]*\) .*|\1|p' -e 's|^[[:space:]]*\(/[^ ]*\) .*|\1|p')
done

# What a Linux image is expected to have: a shell, users, a world-writable /tmp, java on PATH.
ln -s bash "$root$(dirname "$(command -v bash)")/sh" 2>/dev/null || true
mkdir -p "$root/bin" "$root/usr/bin" "$root/etc" "$root/tmp" "$root/root" "$root/proc" "$root/sys" "$root/dev"
[[ -e $root/bin/sh ]] || ln -s "$(command -v bash)" "$root/bin/sh"
[[ -e $root/bin/bash ]] || ln -s "$(command -v bash)" "$root/bin/bash"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"

tar -C "$root" -c . | docker import \
  --change 'ENV JAVA_HOME=/opt/java' \
  --change 'ENV PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["bash"]' \
  - "$tag" >/dev/null
note "built $tag ($(docker image inspect --format '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1 / 1e6}'))"
printf '%s\n' "$tag"

#!/usr/bin/env bash
# Builds Kumiko's container image (docker/Dockerfile) from the distribution archive that
# `mvn -B package` made (kumiko-dist/target/kumiko-VERSION.tar.gz; -Pquick makes none).
#
#   bash scripts/docker-image.sh [--base-image IMAGE] [--tag TAG]
#     --base-image  the JRE 17 image to build on (default: the Dockerfile's, eclipse-temurin:17-jre)
#     --tag         the image's name (default: kumiko:VERSION)
#
# Only the archive, the Dockerfile and the health check go to the engine (a build context of its
# own), not the clone. Prints the tag on success. kumiko-testcontainers' tests run it with a base
# image built from this machine's JDK (scripts/docker-test-base.sh).
set -euo pipefail

repo_root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
base_image=""
tag=""
while (($# > 0)); do
  case "$1" in
  --base-image) base_image="${2:?--base-image needs an image}"; shift 2 ;;
  --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
  *) echo "docker-image: unknown argument $1 (see the script's header)" >&2; exit 2 ;;
  esac
done

version="$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$repo_root/pom.xml" | head -n 1)"
[[ -n $version ]] || { echo "docker-image: no version in pom.xml" >&2; exit 1; }
archive="$repo_root/kumiko-dist/target/kumiko-$version.tar.gz"
[[ -f $archive ]] || {
  echo "docker-image: no $archive (build it: mvn -B -q package -DskipTests -pl kumiko-dist -am)" >&2
  exit 1
}
tag="${tag:-kumiko:$version}"

work="$(mktemp -d "${TMPDIR:-/tmp}/kumiko-image.XXXXXX")"
trap 'rm -rf "$work"' EXIT
context="$work/context"
log="$work/build.log"
mkdir "$context"
cp "$repo_root/docker/Dockerfile" "$context/Dockerfile"
cp "$repo_root/docker/healthcheck.sh" "$context/healthcheck.sh"
cp "$archive" "$context/"

build_args=(--build-arg "KUMIKO_VERSION=$version")
[[ -n $base_image ]] && build_args+=(--build-arg "BASE_IMAGE=$base_image")
# The image the tag named before, removed after the build if the build made a new one (a rebuild
# would otherwise leave it behind, untagged, at every run).
previous_id="$(docker image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)"
# --network host: the build's one RUN step needs no network, and this way the engine needs no
# bridge network either.
if ! docker build --network host "${build_args[@]}" --tag "$tag" "$context" >"$log" 2>&1; then
  cat "$log" >&2
  echo "docker-image: docker build failed" >&2
  exit 1
fi
if [[ -n $previous_id && $previous_id != "$(docker image inspect --format '{{.Id}}' "$tag")" ]]; then
  docker image rm "$previous_id" >/dev/null 2>&1 || true
fi
printf '%s\n' "$tag"

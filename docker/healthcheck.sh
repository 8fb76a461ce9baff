#!/usr/bin/env bash
# The image's HEALTHCHECK: healthy when the server in this container answers its health check
# (`GET /`, answered "healthy: HOST", docs/compatibility.md) on the port it was
# started with. The port is read from the server's own command line (PID 1: bin/kumiko execs
# java), so `docker run kumiko --port 9000` is checked on 9000 without telling the check. Bash
# alone (its /dev/tcp), so the image needs no curl.
set -uo pipefail

port=8000
previous=""
while IFS= read -r -d '' arg; do
  case "$previous" in
  --port) port="$arg" ;;
  esac
  [[ $arg == --port=* ]] && port="${arg#--port=}"
  previous="$arg"
done </proc/1/cmdline
[[ $port =~ ^[0-9]+$ ]] || { echo "unhealthy: no port in the server's command line" >&2; exit 1; }

exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "unhealthy: nothing listens on port $port" >&2; exit 1; }
printf 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
# The answer is a few hundred bytes and ends with the connection (Connection: close); at most 4 KiB
# are read, for at most 5 s.
answer=""
IFS= read -r -t 5 -N 4096 answer <&3 || true
exec 3<&-
if [[ $answer == "HTTP/1.1 200 "* && $answer == *$'\r\n\r\nhealthy: '* ]]; then
  exit 0
fi
echo "unhealthy: port $port did not answer the health check" >&2
exit 1

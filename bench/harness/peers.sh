#!/usr/bin/env bash
# Installs the load harness's peers (idempotent; bench/run.sh also does it on first use).
#
#   bench/harness/peers.sh install [all | wrk | nginx | ddblocal | dynalite]...
#   bench/harness/peers.sh where        print where each peer is installed
#
#   wrk, nginx   Debian packages wrk and nginx-light (apt-get; root or sudo)
#   ddblocal     com.amazonaws:DynamoDBLocal $DDBLOCAL_VERSION (default 2.6.1) and its dependencies
#                from Maven Central (mvn), into $KUMIKO_PEERS/ddblocal/<version>/lib
#   dynalite     dynalite@$DYNALITE_VERSION (default 4.0.0) from npm, into $KUMIKO_PEERS/dynalite/<version>
# KUMIKO_PEERS defaults to ~/.cache/kumiko-peers, outside the repository.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
  install)
    shift
    [[ $# -eq 0 ]] && set -- all
    for peer in "$@"; do
      case "$peer" in
        all) install_wrk; install_nginx; install_ddblocal; install_dynalite ;;
        wrk) install_wrk ;;
        nginx) install_nginx ;;
        ddblocal) install_ddblocal ;;
        dynalite) install_dynalite ;;
        *) die "unknown peer $peer" ;;
      esac
    done ;;
  where)
    echo "wrk       $(command -v wrk || echo 'not installed')"
    echo "nginx     $(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || echo 'not installed')"
    echo "ddblocal  $(ddblocal_lib)"
    echo "dynalite  $(dynalite_dir)" ;;
  *) usage; exit 2 ;;
esac

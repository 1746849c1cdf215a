#!/usr/bin/env bash
# The hosting tests serve the built site from Debian's nginx, which they start themselves as a
# foreground process on 127.0.0.1; install the package when it is missing (needs root, as on CI).
set -euo pipefail
nginx_path="${NGINX_PATH:-/usr/sbin/nginx}"
if [[ -x "$nginx_path" ]]; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then
  echo "nginx is missing at $nginx_path. Install it with: sudo apt-get install -y nginx" >&2
  exit 1
fi
echo "Installing Debian's nginx for the hosting tests…"
export DEBIAN_FRONTEND=noninteractive
# The package would start a system-wide nginx on port 80; the tests never use it. Tell invoke-rc.d
# not to start services during this install, unless the machine already has such a policy.
policy=/usr/sbin/policy-rc.d
created_policy=false
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  created_policy=true
  trap 'rm -f "$policy"' EXIT
fi
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq nginx >/dev/null
$created_policy && rm -f "$policy" && trap - EXIT
exit 0

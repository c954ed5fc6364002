#!/usr/bin/env bash
# cut.sh PATTERN < module.ll > cut.ll: keeps every top-level line of an LLVM
# IR module and, of its function bodies, only those whose define line
# contains PATTERN (the others are left out whole).
set -euo pipefail
awk -v keep="$1" '
  /^define / { infn = 1; k = index($0, keep) > 0 }
  !infn || k { print }
  infn && /^}/ { infn = 0 }
'

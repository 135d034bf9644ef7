#!/usr/bin/env bash
# Installs what sqlbench needs on Debian/Ubuntu when it is missing: a C
# compiler for the cgo drivers, and with SQLBENCH_SERVERS=1 the MariaDB and
# PostgreSQL server packages (sqlbench runs private instances of them; the
# system services are not used), galera-4 and rsync (the Galera cluster)
# and Chromium, in which the tests open the
# HTML report. With SQLBENCH_SQINN=1 (scripts/test; scripts/sqlbench when
# its arguments name sqinn), where sqinn's sources are beside the
# repository (../shared/sqinn, with its build.sh) and SQINN_PATH is not
# set, it also installs SQLite's headers and library, builds the sqinn
# program into bin/sqinn and exports SQINN_PATH, so that the sqinn target
# runs. Sourced, from the repository's root, by scripts/sqlbench and
# scripts/test.
set -euo pipefail

apt_install() {
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		if command -v sudo >/dev/null; then sudo="sudo"; else
			echo "sqlbench: please install: $* (not root, and no sudo)" >&2; return 1
		fi
	fi
	if ! command -v apt-get >/dev/null; then
		echo "sqlbench: please install: $* (no apt-get on this system)" >&2; return 1
	fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

need=()
command -v go >/dev/null || { echo "sqlbench: needs Go 1.26 or later on PATH (https://go.dev/dl/)" >&2; exit 2; }
command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ "${SQLBENCH_SERVERS:-0}" = 1 ]; then
	{ command -v mariadbd || [ -x /usr/sbin/mariadbd ]; } >/dev/null || need+=(mariadb-server)
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
	# The galera cluster (sqlbench server start galera): the wsrep provider,
	# and rsync for its state transfer.
	compgen -G '/usr/lib/galera*/libgalera_smm.so' >/dev/null || need+=(galera-4)
	command -v rsync >/dev/null || need+=(rsync)
	{ command -v java && command -v mvn; } >/dev/null || need+=(default-jdk-headless maven)
	command -v chromium >/dev/null || need+=(chromium)
fi
sqinn_build=""
if [ "${SQLBENCH_SQINN:-0}" = 1 ] && [ -z "${SQINN_PATH:-}" ] && [ -f ../shared/sqinn/build.sh ]; then
	sqinn_build=../shared/sqinn/build.sh
	{ [ -e /usr/include/sqlite3.h ] && compgen -G '/usr/lib/*/libsqlite3.so' >/dev/null; } || need+=(libsqlite3-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "sqlbench: installing ${need[*]}" >&2
	apt_install "${need[@]}"
fi
if [ -n "$sqinn_build" ]; then
	# Rebuilt only when a source is newer than the binary (about a second).
	if [ ! -x bin/sqinn ] || [ -n "$(find ../shared/sqinn -type f -newer bin/sqinn -print -quit)" ]; then
		mkdir -p bin
		bash "$sqinn_build" bin >/dev/null 2>bin/.sqinn-build.log ||
			{ cat bin/.sqinn-build.log >&2; echo "sqlbench: building sqinn failed" >&2; exit 1; }
	fi
	SQINN_PATH=$(pwd)/bin/sqinn
	export SQINN_PATH
fi

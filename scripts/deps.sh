#!/usr/bin/env bash
# Installs what sqlbench needs on Debian/Ubuntu when it is missing: a C
# compiler for the cgo drivers, and with SQLBENCH_SERVERS=1 the MariaDB and
# PostgreSQL server packages (sqlbench runs private instances of them; the
# system services are not used), galera-4 and rsync (the Galera cluster)
# and Chromium, in which the tests open the
# HTML report. With SQLBENCH_SQINN=1 (scripts/test; scripts/sqlbench when
# its arguments name sqinn) and SQINN_PATH not set, it also installs
# SQLite's headers and library and has scripts/sqinn obtain the sqinn
# program (from its cache, sources beside the repository, or its public
# repository), exporting SQINN_PATH; where it cannot be had, the sqinn
# target and tests are skipped with one line, or, with
# SQLBENCH_REQUIRE_SQINN=1 (.ci/run), the script fails. Sourced, from the repository's root, by scripts/sqlbench and
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
	command -v valgrind >/dev/null || need+=(valgrind) # run --measure instructions
fi
sqinn=0
if [ "${SQLBENCH_SQINN:-0}" = 1 ] && [ -z "${SQINN_PATH:-}" ]; then
	sqinn=1
	# scripts/sqinn builds the program against the system SQLite unless
	# its cache already holds it.
	sqinn_cached=${XDG_CACHE_HOME:-$HOME/.cache}/sqlbench/sqinn-v1.1.27/sqinn
	[ -x "$sqinn_cached" ] || { [ -e /usr/include/sqlite3.h ] && compgen -G '/usr/lib/*/libsqlite3.so' >/dev/null; } ||
		need+=(libsqlite3-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "sqlbench: installing ${need[*]}" >&2
	apt_install "${need[@]}"
fi
if [ "$sqinn" = 1 ]; then
	# Where sqinn cannot be had (no sources beside the repository and its
	# public repository out of reach), its tests skip with one line, unless
	# SQLBENCH_REQUIRE_SQINN=1 (.ci/run) makes that a failure.
	sqinn_err=$(mktemp)
	if SQINN_PATH=$(scripts/sqinn 2>"$sqinn_err"); then
		export SQINN_PATH
	else
		status=$?
		unset SQINN_PATH
		reason=$(tail -n 1 "$sqinn_err")
		if [ "${SQLBENCH_REQUIRE_SQINN:-0}" = 1 ]; then
			echo "sqlbench: $reason (SQLBENCH_REQUIRE_SQINN=1: required)" >&2
			exit 1
		fi
		[ "$status" = 3 ] || echo "sqlbench: building sqinn failed: $reason" >&2
		echo "sqlbench: the sqinn target and its tests are skipped: $reason" >&2
	fi
	rm -f "$sqinn_err"
fi

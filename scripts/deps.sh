#!/usr/bin/env bash
# Installs what sqlbench needs on Debian/Ubuntu when it is missing, and
# only that, saying what and why first ("sqlbench: installing X (needed
# for Y)"). Sourced, from the repository's root, by scripts/sqlbench with
# the sqlbench command line as its arguments, and by scripts/test.
#
# For a sqlbench command line (sqlbench_needs): a C compiler when a cgo
# SQLite driver runs (mattn, crawshaw, eatonphil, bvinc); the MariaDB or
# PostgreSQL server package only when sqlbench will start a throwaway
# server of it (--db mariadb or postgres without a --dsn or
# $SQLBENCH_MYSQL_DSN/$SQLBENCH_POSTGRES_DSN for it, a reproduced study on
# it, sqlbench server start); galera-4 and rsync for server start galera; a
# JDK and Maven when a JDBC target is named (--targets, or a study with a
# JDBC side) — not for the default target list, whose JDBC target is then
# skipped with a line saying how to add it; nothing for a dry run, or for
# a server the user gives. With SQLBENCH_SERVERS=1 (scripts/test, CI):
# everything the tests need, Chromium included (they open the HTML report
# in it). SQLBENCH_DEPS_DRY=1 prints what would be installed and why,
# installs nothing and builds nothing.
#
# With SQLBENCH_SQINN=1 (scripts/test; scripts/sqlbench when its arguments
# name sqinn) and SQINN_PATH not set, it also installs SQLite's headers and
# library and has scripts/sqinn obtain the sqinn program (from its cache,
# sources beside the repository, or its public repository), exporting
# SQINN_PATH; where it cannot be had, the sqinn target and tests are
# skipped with one line, or, with SQLBENCH_REQUIRE_SQINN=1 (.ci/run), the
# script fails.
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

# The catalogue's targets as the selection below needs them, DB:NAME with
# :cgo or :jvm where the target needs a C compiler or a JDK (deps_test.go
# checks it against targets.All()).
sqlbench_targets="sqlite:mattn:cgo sqlite:modernc sqlite:zombiezen sqlite:crawshaw:cgo sqlite:ncruces
	sqlite:ncruces-native sqlite:eatonphil:cgo sqlite:bvinc:cgo sqlite:sqinn mariadb:mysql mariadb:mysql-interp
	mariadb:mymysql mariadb:mymysql-native mariadb:go-mysql postgres:pq postgres:pgx postgres:pgx-native
	postgres:pgproto mariadb:mysqlproto postgres:pgxpool
	mariadb:jdbc-mysql:jvm mariadb:jdbc-mariadb:jvm postgres:jdbc-postgres:jvm sqlite:jdbc-sqlite:jvm
	postgres:jdbc-pg-hikari:jvm mariadb:jdbc-mariadb-hikari:jvm
	loopback:tcp loopback:http"

# sqlbench_study_targets ID: the targets of study ID (all: of every study)
# in internal/studies/studies.json, one a line.
sqlbench_study_targets() {
	awk -v want="$1" '
		/^  "id": / { id = $2; gsub(/[",]/, "", id) }
		/"target": / && (want == "all" || id == want) { t = $2; gsub(/[",]/, "", t); print t }
	' internal/studies/studies.json | sort -u
}

# sqlbench_needs ARGS...: what the sqlbench command line ARGS needs beyond
# Go, one line each, "WHAT<tab>WHY", WHAT one of cc, mariadb, postgres,
# galera, java; and "nojava<tab>TARGETS" when the default target list has
# JDBC targets that are skipped without a JDK.
sqlbench_needs() {
	local cmd="" a v i dry=0
	local -a pos=() dbs=() tlist=() given=() sel=() named=()
	local -a args=("$@")
	for ((i = 0; i < ${#args[@]}; i++)); do
		a=${args[i]}
		case $a in
		--db | --targets | --target | --dsn) v=${args[i + 1]:-}; i=$((i + 1)) ;;
		--db=* | --targets=* | --target=* | --dsn=*) v=${a#*=}; a=${a%%=*} ;;
		--dry-run | --dry-run=true) dry=1; continue ;;
		-*) continue ;;
		*) if [ -z "$cmd" ]; then cmd=$a; else pos+=("$a"); fi; continue ;;
		esac
		case $a in
		--db) IFS=, read -ra a <<<"$v"; dbs+=("${a[@]}") ;;
		--targets) IFS=, read -ra a <<<"$v"; tlist+=("${a[@]}") ;;
		--target) tlist+=("$v") ;; # bisect's one target
		--dsn) # DATABASE=DSN (mysql= is mariadb's); a bare URL by its scheme
			case $v in
			postgres=* | postgres://* | postgresql://*) given+=(postgres) ;;
			*) given+=(mariadb) ;;
			esac ;;
		esac
	done
	[ "$dry" = 1 ] && return 0 # a dry run builds and starts nothing
	[ -n "${SQLBENCH_POSTGRES_DSN:-}" ] && given+=(postgres)
	[ -n "${SQLBENCH_MYSQL_DSN:-}" ] && given+=(mariadb)
	case $cmd in
	server)
		[ "${pos[0]:-}" = start ] || return 0
		case ${pos[1]:-} in
		mariadb) printf 'mariadb\tsqlbench server start mariadb, a throwaway MariaDB server\n' ;;
		postgres | postgres-sync) printf 'postgres\tsqlbench server start %s, a throwaway PostgreSQL server\n' "${pos[1]}" ;;
		galera)
			printf 'mariadb\tsqlbench server start galera, a MariaDB Galera cluster\n'
			printf 'galera\tsqlbench server start galera: the wsrep provider, and rsync for its state transfer\n' ;;
		esac
		return 0 ;;
	run | bisect)
		[ ${#dbs[@]} -gt 0 ] || dbs=(sqlite)
		local t name db kind incl=0 sdb
		for a in "${tlist[@]}"; do [[ $a == -* ]] || incl=1; done
		for t in $sqlbench_targets; do
			IFS=: read -r db name kind <<<"$t"
			local ours=0 in=0 out=0
			for sdb in "${dbs[@]}"; do [ "$sdb" = "$db" ] && ours=1; done
			for a in "${tlist[@]}"; do
				a=${a%%@*}; a=${a%%+*} # name@version, name+spin=DURATION
				if [[ $a == -* ]]; then
					# shellcheck disable=SC2053 # the glob is the point
					[[ $name == ${a#-} ]] && out=1
				elif [[ $a == *[*?[]* ]]; then
					# shellcheck disable=SC2053
					[ $ours = 1 ] && [[ $name == $a ]] && in=1
				elif [ "$a" = "$name" ]; then
					in=1
				fi
			done
			[ $incl = 0 ] && in=$ours
			[ $in = 1 ] && [ $out = 0 ] || continue
			sel+=("$t")
			[ $incl = 1 ] && named+=("$name")
		done ;;
	reproduce)
		local st
		for a in "${pos[@]}"; do
			while read -r st; do named+=("$st"); done < <(sqlbench_study_targets "$a")
		done
		for t in $sqlbench_targets; do
			IFS=: read -r db name kind <<<"$t"
			for a in "${named[@]}"; do [ "$a" = "$name" ] && sel+=("$t"); done
		done ;;
	*) return 0 ;;
	esac
	local -a cgo=() jvm=() skipjvm=() sdbs=()
	for t in "${sel[@]}"; do
		IFS=: read -r db name kind <<<"$t"
		[[ " ${sdbs[*]} " == *" $db "* ]] || sdbs+=("$db")
		[ "$kind" = cgo ] && cgo+=("$name")
		if [ "$kind" = jvm ]; then
			if [[ " ${named[*]} " == *" $name "* ]]; then jvm+=("$name"); else skipjvm+=("$name"); fi
		fi
	done
	[ ${#cgo[@]} -gt 0 ] && printf 'cc\tthe cgo SQLite drivers %s\n' "${cgo[*]}"
	for db in "${sdbs[@]}"; do
		[[ " ${given[*]} " == *" $db "* ]] && continue # the user's own server
		case $db in
		mariadb) printf 'mariadb\ta throwaway MariaDB server; --dsn mariadb=DSN uses yours instead\n' ;;
		postgres) printf 'postgres\ta throwaway PostgreSQL server; --dsn postgres=DSN uses yours instead\n' ;;
		esac
	done
	[ ${#jvm[@]} -gt 0 ] && printf 'java\tthe JDBC targets %s\n' "${jvm[*]}"
	[ ${#skipjvm[@]} -gt 0 ] && printf 'nojava\t%s\n' "${skipjvm[*]}"
	return 0
}

need=()
declare -A why=([libsqlite3-dev]="building the sqinn program")
# deps_want PACKAGES...: the packages are needed for $reason; the missing
# ones (by the check that follows each call) are installed.
deps_want() {
	local p
	for p in "$@"; do why[$p]=$reason; done
}
command -v go >/dev/null || { echo "sqlbench: needs Go 1.26 or later on PATH (https://go.dev/dl/)" >&2; exit 2; }
if [ "${SQLBENCH_SERVERS:-0}" = 1 ]; then # the tests: everything
	needs=$(printf '%s\n' cc mariadb postgres galera java chromium valgrind jq | sed 's/$/\tthe tests, SQLBENCH_SERVERS=1/')
else
	needs=$(sqlbench_needs "$@")
fi
nojava=""
while IFS=$'\t' read -r what reason; do
	case $what in
	cc) reason="a C compiler for $reason"
		deps_want gcc libc6-dev
		command -v gcc >/dev/null || need+=(gcc libc6-dev) ;;
	mariadb) deps_want mariadb-server
		{ command -v mariadbd || [ -x /usr/sbin/mariadbd ]; } >/dev/null || need+=(mariadb-server) ;;
	postgres) deps_want postgresql
		ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql) ;;
	galera) deps_want galera-4 rsync
		compgen -G '/usr/lib/galera*/libgalera_smm.so' >/dev/null || need+=(galera-4)
		command -v rsync >/dev/null || need+=(rsync) ;;
	java) reason="a JDK and Maven for $reason"
		deps_want default-jdk-headless maven
		{ command -v java && command -v mvn; } >/dev/null || need+=(default-jdk-headless maven) ;;
	chromium) reason="${reason%%,*}, which open the HTML report in it"
		deps_want chromium
		command -v chromium >/dev/null || need+=(chromium) ;;
	valgrind) reason="${reason%%,*} of run --measure instructions"
		deps_want valgrind
		command -v valgrind >/dev/null || need+=(valgrind) ;;
	jq) reason="${reason%%,*} of examples/ci (it reads the reports' JSON)"
		deps_want jq
		command -v jq >/dev/null || need+=(jq) ;;
	nojava) { command -v java && command -v mvn; } >/dev/null || nojava=$reason ;;
	esac
done <<<"$needs"
if [ "${SQLBENCH_DEPS_DRY:-0}" = 1 ]; then
	# What the command line needs, installed or not, and what is missing.
	for p in "${!why[@]}"; do
		[ "$p" = libsqlite3-dev ] && continue
		state=present
		[[ " ${need[*]} " == *" $p "* ]] && state=missing
		printf 'needs %s (%s): %s\n' "$p" "${why[$p]}" "$state"
	done | sort
	[ -z "$nojava" ] || echo "skips without a JDK and Maven: $nojava"
	exit 0
fi
# (Without a JDK the session says once that it skips $nojava, and how to add it.)
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
	# One line per reason, in the order the packages were found missing.
	declare -A told=()
	for p in "${need[@]}"; do
		r=${why[$p]:-sqlbench}
		[ -n "${told[$r]:-}" ] && continue
		told[$r]=1
		pkgs=()
		for q in "${need[@]}"; do [ "${why[$q]:-sqlbench}" = "$r" ] && pkgs+=("$q"); done
		echo "sqlbench: installing ${pkgs[*]} (needed for $r)" >&2
	done
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

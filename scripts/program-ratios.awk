# program-ratios.awk: the summary of scripts/program-gsb and
# scripts/program-sqinn-go. Its input: first program.tsv (round, load,
# driver, test, ms: the times the published program printed), then the
# Markdown tables of the interleaved reproduce runs (rep-R.md). Its output:
# per headline comparison (the rows of those tables) the README's ratio,
# the program's here (its speed: the second side's time over the first's),
# sqlbench's measured ratio, each median [min-max] over the rounds, and
# sqlbench's verdicts. The program's drivers are named as the study's
# sides.
FNR == 1 { file++ }
file == 1 && FNR > 1 { ms[$1, $3, $4] = $5; rounds[$1] = 1; if (lo == "" || $2 < lo) lo = $2; if ($2 > hi) hi = $2; next }
file > 1 {
	if ($0 !~ /^\| [a-z]+\/[A-Za-z]/ || $0 ~ /^\| test/) next
	n = split($0, f, " *\\| *")
	test = f[2]; cmp = f[3]; key = test " " cmp
	if (!(key in seen)) { seen[key] = 1; order[++keys] = key; tests[key] = test; cmps[key] = cmp; readme[key] = f[4] }
	m = f[5]; sub(/×/, "", m); sq[key, ++nsq[key]] = m + 0
	v = f[7]; gsub(/\*/, "", v); sub(/ \[[0-9]+\]/, "", v); sub(/, .*/, "", v)
	verdicts[key, v]++; vlist[key] = vlist[key] (index(vlist[key], "|" v "|") ? "" : "|" v "|")
}
function stat(a, n,    i, j, t, s) {
	if (n == 0) return "-"
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	s = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	return sprintf("%.2f× [%.2f-%.2f]", s, a[1], a[n])
}
END {
	printf "| test | pair | README | program here | sqlbench here | verdicts |\n|---|---|---|---|---|---|\n"
	for (i = 1; i <= keys; i++) {
		key = order[i]; split(cmps[key], p, " / ")
		delete a; na = 0
		for (r in rounds) if (ms[r, p[1], tests[key]] > 0 && ms[r, p[2], tests[key]] != "") \
			a[++na] = ms[r, p[2], tests[key]] / ms[r, p[1], tests[key]]
		delete b; for (j = 1; j <= nsq[key]; j++) b[j] = sq[key, j]
		vs = ""; m = split(vlist[key], vv, "|")
		for (j = 1; j <= m; j++) if (vv[j] != "") vs = vs (vs == "" ? "" : ", ") verdicts[key, vv[j]] " " vv[j]
		printf "| %s | %s | %s | %s | %s | %s |\n", tests[key], cmps[key], readme[key], stat(a, na), stat(b, nsq[key]), vs
	}
	printf "\nrounds: %d; load average (1 min) before each program process: %s-%s\n", length(rounds), lo, hi
}

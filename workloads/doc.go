// Package workloads holds the benchmark catalogue: one file per workload
// family, each registering its workloads with bench.RegisterWorkload. Every
// workload checks what it reads: a target that returns wrong data fails the
// cell.
package workloads

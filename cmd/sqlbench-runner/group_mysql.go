//go:build sqlbench_mysql

package main

// The MariaDB/MySQL drivers: pure Go.
import (
	_ "github.com/sqlbench/sqlbench/targets/gomysql"
	_ "github.com/sqlbench/sqlbench/targets/mymysql"
	_ "github.com/sqlbench/sqlbench/targets/mysql"
	_ "github.com/sqlbench/sqlbench/targets/mysqlproto" // the protocol floor
)

# Sets of runs whose truth is known, as 1.03 CSV lines, for the verdicts
# of clyde report --average --compare (tests/report/command_line.sh):
#   awk -v name=NAME -v set=old|new|two -f tests/tools/sets.awk
# old: 5 runs, every rate at its level with the same noise, -2 % to +2 %;
# new: 5 runs, the same noise in another order, so that an unchanged
#      phase has exactly old's mean:
#      put_block +20 %, get_block -14 %, seq_create bimodal (3 runs near
#      810, 2 near 73), seq_stat +++++ in 2 runs and 20000 in 3 (old:
#      +++++ in all), every other phase unchanged;
# two: 2 runs, put_block +31 %: too few runs for a verdict.
# With -v format=1.98, 2.00 CSV lines with latencies, the same noise:
# every latency unchanged but put_block's, half of old's in new (better),
# and get_block's, 1.4 times old's in new (worse).
function r(x) { return sprintf("%d", x + 0.5) }
BEGIN {
	split("-0.02 -0.01 0 0.01 0.02", dold, " ")
	split("0.01 -0.02 0.02 -0.01 0", dnew, " ")
	split("820 75 810 72 800", bimodal, " ")
	runs = set == "two" ? 2 : 5
	for (i = 1; i <= runs; i++) {
		d = set == "old" ? dold[i] : dnew[i]
		pb = set == "old" ? 100000 : set == "new" ? 120000 : 131000
		gb = set == "old" ? 200000 : 172000
		sc = set == "new" ? bimodal[i] : r(800 * (1 + d / 2))
		ss = set == "new" && i > 2 ? "20000,50" : "+++++,+++"
		f = r(1000 * (1 + d))
		if (format == "1.98") {
			lpb = set == "old" ? 50000 : 25000
			lgb = set == "old" ? 10000 : 14000
			printf "1.98,2.00,%s,1,1,1G,,8192,5,%s,90,%s,10,%s,5,%s,90,%s,5,%.1f,1,16,,,,,%s,20,%s,%s,20,%s,20,%s,20,%s,20",
			    name, r(5000 * (1 + d)), r(pb * (1 + d)),
			    r(50000 * (1 + d)), r(4000 * (1 + d)), r(gb * (1 + d)),
			    300 * (1 + d), sc, ss, f, f, f, f
			split(1000 " " lpb " " 80000 " " 500 " " lgb " " 60000 " " \
			    2000 " " 2000 " " 2000 " " 2000 " " 2000 " " 2000, lat, " ")
			for (k = 1; k <= 12; k++)
				printf ",%sus", r(lat[k] * (1 + d))
			printf "\n"
			continue
		}
		printf "%s,1G,%s,90,%s,10,%s,5,%s,90,%s,5,%.1f,1,16,%s,20,%s,%s,20,%s,20,%s,20,%s,20\n",
		    name, r(5000 * (1 + d)), r(pb * (1 + d)), r(50000 * (1 + d)),
		    r(4000 * (1 + d)), r(gb * (1 + d)), 300 * (1 + d), sc, ss,
		    f, f, f, f
	}
}

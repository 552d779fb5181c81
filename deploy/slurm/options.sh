# Sourced by the submit scripts: reads their own options -n SHARDS, -c CPUS and -d DIR
# (and -h) from the front of the command line into shards, cpus and dir, and leaves the
# rest, the command's own flags, in the positional parameters (the caller runs
# `parse_options "$@"; set -- "${rest[@]}"`). The caller sets shards (its default), cpus=1,
# dir=., min_shards, and a usage function, before it calls parse_options.
parse_options() {
	local me
	me=$(basename "$0")
	while (($# > 0)); do
		case $1 in
		-n) shards=${2:-} ;;
		-c) cpus=${2:-} ;;
		-d) dir=${2:-} ;;
		-h | --help) usage ;;
		--)
			shift
			break
			;;
		*) break ;; # the first of the command's flags
		esac
		(($# >= 2)) || usage
		shift 2
	done
	[[ $shards =~ ^[0-9]+$ && $shards -ge $min_shards ]] || { echo "$me: -n $shards: give $min_shards or more shards" >&2; exit 2; }
	[[ $cpus =~ ^[0-9]+$ && $cpus -ge 1 ]] || { echo "$me: -c $cpus: give 1 or more CPUs" >&2; exit 2; }
	rest=("$@")
}

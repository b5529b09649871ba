#!/bin/sh
# A fake external evaluator for exec_eval's tests: it reads the evaluation
# request on stdin and answers as its first argument says. With "pass", a
# second argument names a file the request is copied to.
case "$1" in
pass)
	cat > "${2:-/dev/null}"
	echo '{"passed": true, "score": 0.9, "reasoning": "states the amount"}' ;;
fail)
	cat > /dev/null
	echo '{"passed": false, "score": 0.2, "reasoning": "misses the amount"}' ;;
score)
	cat > /dev/null
	echo '{"score": 0.4}' ;;
garbage)
	cat > /dev/null
	echo 'Looks fine to me!' ;;
noverdict)
	cat > /dev/null
	echo '{"reasoning": "I could not decide"}' ;;
exit)
	cat > /dev/null
	echo 'cannot reach the grading service' >&2
	exit 3 ;;
hang)
	exec sleep 30 ;;
env)
	cat > /dev/null
	if [ -n "$EVALKIT_TEST_UNLISTED" ]; then
		echo '{"passed": false, "reasoning": "an unlisted variable was inherited"}'
	else
		echo "{\"passed\": true, \"reasoning\": \"token $EVAL_TOKEN\"}"
	fi ;;
*)
	echo "unknown mode $1" >&2
	exit 2 ;;
esac

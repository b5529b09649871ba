package assert

import (
	_ "github.com/jmespath-community/go-jmespath"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
)

func jsonChecks() map[string]func(*params) (Check, error) { return nil }

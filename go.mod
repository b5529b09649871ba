module github.com/evalkit-go/evalkit

go 1.25.0

require (
	github.com/go-analyze/charts v0.6.4
	github.com/google/go-cmp v0.7.0
	github.com/jmespath-community/go-jmespath v1.1.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/text v0.41.0
)

require (
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/go-analyze/bulk v0.1.6 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/exp v0.0.0-20230314191032-db074128a8ec // indirect
	golang.org/x/image v0.45.0 // indirect
)

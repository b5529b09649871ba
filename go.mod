module github.com/evalkit-go/evalkit

go 1.25.0

require (
	github.com/abema/go-mp4 v1.4.1
	github.com/go-analyze/charts v0.6.4
	github.com/go-audio/wav v1.1.0
	github.com/google/go-cmp v0.7.0
	github.com/jfreymuth/oggvorbis v1.0.5
	github.com/jmespath-community/go-jmespath v1.1.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	github.com/tcolgate/mp3 v0.0.0-20170426193717-e79c5a46d300
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/image v0.45.0
	golang.org/x/text v0.41.0
)

require (
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/go-analyze/bulk v0.1.6 // indirect
	github.com/go-audio/audio v1.0.0 // indirect
	github.com/go-audio/riff v1.0.0 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.1.2 // indirect
	github.com/jfreymuth/vorbis v1.0.2 // indirect
	golang.org/x/exp v0.0.0-20230314191032-db074128a8ec // indirect
)

// swift-tools-version: 6.1
// The code generator alone, pinned, for scripts/generate-openapi-client: it builds
// swift-openapi-generator's command once (a few minutes) to regenerate the committed client
// of Server/openapi.yaml; neither CI nor the OpenAPISession package builds it.
import PackageDescription

let package = Package(
    name: "OpenAPIClientGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)

// The params of the spec, fixed when dfgc ran (dfgc compile -D NAME=VALUE).
namespace param {
$constants$}  // namespace param


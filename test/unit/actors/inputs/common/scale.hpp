#pragma once
inline constexpr float kScale = 2.0f;

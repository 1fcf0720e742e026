// SPDX-License-Identifier: MIT
#include "orrery/dist/broadcast_values.hpp"

#include "dist/tile_bytes.hpp"

namespace orrery::dist {

namespace {

template <class T>
void put_param_list(TileBytesOut& out, const T& list) {
  out.put_value(static_cast<std::int64_t>(list.size()));
  for (const auto& x : list) out.put_value(x);
}

template <class T>
T take_param_list(TileBytesIn& in) {
  T list;
  list.resize(static_cast<std::size_t>(in.take_value<std::int64_t>()));
  for (auto& x : list) x = in.take_value<typename T::value_type>();
  return list;
}

}  // namespace

void broadcast_param_values(std::vector<ParamValue>& values) {
  if (!distributed()) return;
  TileBytesOut out;
  for (const ParamValue& v : values) {
    out.put_value(static_cast<std::int32_t>(v.index()));
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::string>)
            put_param_list(out, x);
          else
            out.put_value(x);
        },
        v);
  }
  std::vector<std::byte> bytes = out.bytes();
  broadcast_from_root(bytes);
  if (writes()) return;
  TileBytesIn in(bytes, {}, 0);
  for (ParamValue& v : values) {
    switch (in.take_value<std::int32_t>()) {
      case 0: v = in.take_value<std::int64_t>(); break;
      case 1: v = in.take_value<double>(); break;
      case 2: v = take_param_list<std::vector<double>>(in); break;
      case 3: v = take_param_list<std::string>(in); break;
      default: v = in.take_value<bool>(); break;
    }
  }
}

}  // namespace orrery::dist

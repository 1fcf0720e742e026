// SPDX-License-Identifier: MIT
// Particles from CSV and HDF5 files: what is read, and every kind of bad file refused with the
// file and the line (or dataset and row) named.
#include <array>
#include <string>

#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/particle_file.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

using test::TempDir;
using test::write_text;

// The message of the InputError that reading `path` raises; "" when it is accepted.
std::string refusal(const std::filesystem::path& path, const std::string& group = "") {
  try {
    read_particle_file(path, group);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SceneFile, CsvInAnyColumnOrder) {
  TempDir dir;
  const auto path = dir / "stars.csv";
  write_text(path,
             "# two stars\n"
             "vx, x,y ,z,  vy,vz, MASS, id\r\n"
             "\n"
             "0.5, 1, 2, 3, -0.25, 0, 1e-3, 17\r\n"
             "# a comment between\n"
             "+0, -1, -2, -3, 0.25, 1.5, 2, 4\n");
  const InitialConditions ic = read_particle_file(path);
  const auto& p = ic.particles;
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.x, (std::vector<double>{1, -1}));
  EXPECT_EQ(p.y, (std::vector<double>{2, -2}));
  EXPECT_EQ(p.vx, (std::vector<double>{0.5, 0}));
  EXPECT_EQ(p.vy, (std::vector<double>{-0.25, 0.25}));
  EXPECT_EQ(p.vz, (std::vector<double>{0, 1.5}));
  EXPECT_EQ(p.mass, (std::vector<double>{1e-3, 2}));
  EXPECT_EQ(p.id, (std::vector<std::uint64_t>{17, 4}));
  EXPECT_TRUE(p.softening.empty());
  EXPECT_EQ(ic.scene, "file");
  EXPECT_EQ(ic.g, 1.0);
  EXPECT_GT(ic.dt, 0.0);
  EXPECT_GT(ic.t_end, ic.dt);
}

TEST(SceneFile, CsvWithoutIdsAndWithSoftening) {
  TempDir dir;
  const auto path = dir / "stars.csv";
  write_text(path, "m,x,y,z,vx,vy,vz,softening\n1,0,0,0,0,0,0,0.1\n1,1,0,0,0,1,0,0\n");
  const auto p = read_particle_file(path).particles;
  EXPECT_EQ(p.id, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(p.softening, (std::vector<double>{0.1, 0.0}));
}

TEST(SceneFile, BadCsvFilesAreRefusedWithFileLineAndColumn) {
  const std::string header = "m,x,y,z,vx,vy,vz\n";
  const std::string good = "1,0,0,0,0,0,0\n";
  struct Case {
    std::string text;
    std::vector<std::string> message;  // parts the refusal must contain
  };
  const std::vector<Case> cases{
      {"m,x,y,z,vx,vy\n" + good, {":1 header", "missing: vz"}},
      {"x,y,z,vx,vy,vz\n" + good, {"missing: m"}},
      {"m,x,y,z,vx,vy,vz,colour\n1,0,0,0,0,0,0,red\n", {":1 header column 8", "colour", "one of"}},
      {"m,x,y,z,vx,vy,vz,mass\n" + good, {"column 8", "not named before", "column 1 is m"}},
      {header + good + "1,0,0,abc,0,0,0\n", {":3 column 'z'", "abc", "a finite number"}},
      {header + good + "1,0,0,0,nan,0,0\n", {":3 column 'vx'", "nan"}},
      {header + good + "1,0,0,0,0,inf,0\n", {":3 column 'vy'", "inf"}},
      {header + good + "1,0,0,0,0,,0\n", {":3 column 'vy'", "an empty value"}},
      {header + good + "1,0,0,1.5e999,0,0,0\n", {":3 column 'z'"}},
      {header + good + "-2,1,0,0,0,0,0\n", {":3 column 'm'", "-2", ">= 0"}},
      {header + good + "1,1,0,0,0\n", {":3", "5 values", "7 values"}},
      {"id," + header + "3," + good + "4," + good + "3," + good,
       {":4 column 'id'", "line 2 has it"}},
      {"id," + header + "-3," + good, {":2 column 'id'", "-3"}},
      {"m,x,y,z,vx,vy,vz,softening\n1,0,0,0,0,0,0,-1\n" + good.substr(0, good.size() - 1) + ",0\n",
       {":2 column 'softening'", ">= 0"}},
      {good + good, {":1 header", "naming the columns"}},
      {"", {"no header"}},
      {"# only a comment\n", {"no header"}},
      {header + good, {"1 particle", "at least 2"}},
      {header, {"0 particles", "at least 2"}},
  };
  TempDir dir;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto path = dir / ("bad" + std::to_string(k) + ".csv");
    write_text(path, cases[k].text);
    const std::string message = refusal(path);
    EXPECT_NE(message, "") << "accepted:\n" << cases[k].text;
    EXPECT_TRUE(contains(message, path.string())) << message;
    for (const auto& part : cases[k].message)
      EXPECT_TRUE(contains(message, part)) << "'" << part << "' not in: " << message;
  }
  EXPECT_TRUE(contains(refusal(dir / "missing.csv"), "missing.csv"));
  EXPECT_TRUE(contains(refusal(dir.path()), "not a readable file"));
}

// An HDF5 particle group.
void write_group(hid_t parent, const std::vector<double>& mass, const std::vector<double>& pos,
                 const std::vector<double>& vel, const std::vector<std::uint64_t>* ids = nullptr) {
  const hsize_t n = mass.size();
  const std::array<hsize_t, 1> d1{n};
  const std::array<hsize_t, 2> d2{n, pos.size() / n};
  h5::write_dataset<double>(parent, "mass", mass, d1);
  h5::write_dataset<double>(parent, "position", pos, d2);
  h5::write_dataset<double>(parent, "velocity", vel, std::array<hsize_t, 2>{n, vel.size() / n});
  if (ids) h5::write_dataset<std::uint64_t>(parent, "id", *ids, d1);
}

const std::vector<double> kPos{1, 2, 3, -1, -2, -3};
const std::vector<double> kVel{0.5, 0, 0, -0.5, 0, 0};

TEST(SceneFile, Hdf5AtTheRootWithAttributes) {
  TempDir dir;
  const auto path = dir / "stars.h5";
  {
    h5::Handle f = h5::create_file(path.string());
    const std::vector<std::uint64_t> ids{10, 20};
    write_group(f.id(), {1.0, 3.0}, kPos, kVel, &ids);
    h5::write_attribute(f.id(), "G", 6.67384e-11);
    h5::write_attribute(f.id(), "softening", 1e19);
    h5::write_attribute(f.id(), "units", std::string("SI: m, kg, s"));
  }
  const InitialConditions ic = read_particle_file(path);
  const auto& p = ic.particles;
  EXPECT_EQ(p.mass, (std::vector<double>{1, 3}));
  EXPECT_EQ(p.y, (std::vector<double>{2, -2}));
  EXPECT_EQ(p.vx, (std::vector<double>{0.5, -0.5}));
  EXPECT_EQ(p.id, (std::vector<std::uint64_t>{10, 20}));
  EXPECT_EQ(ic.g, 6.67384e-11);
  EXPECT_EQ(ic.softening, 1e19);
  EXPECT_EQ(ic.units, "SI: m, kg, s");
}

TEST(SceneFile, Hdf5TakesTheLastSnapshotOrTheGroupGiven) {
  TempDir dir;
  const auto path = dir / "run.h5";
  {
    h5::Handle f = h5::create_file(path.string());
    h5::Handle s = h5::create_group(f.id(), "snapshots");
    h5::Handle a = h5::create_group(s.id(), "000000");
    write_group(a.id(), {1.0, 1.0}, kPos, kVel);
    h5::Handle b = h5::create_group(s.id(), "000010");
    write_group(b.id(), {2.0, 2.0}, kPos, kVel);
    h5::write_attribute(b.id(), "time", 10.0);
  }
  EXPECT_EQ(read_particle_file(path).particles.mass[0], 2.0);
  EXPECT_EQ(read_particle_file(path, "/snapshots/000000").particles.mass[0], 1.0);
  EXPECT_EQ(read_particle_hdf5(path).time, 10.0);
  EXPECT_TRUE(contains(refusal(path, "/snapshots/000005"), "no group '/snapshots/000005'"));
}

TEST(SceneFile, BadHdf5FilesAreRefusedWithDatasetAndRow) {
  TempDir dir;
  int k = 0;
  auto check = [&](auto&& fill, std::vector<std::string> parts) {
    const auto path = dir / ("bad" + std::to_string(k++) + ".h5");
    {
      h5::Handle f = h5::create_file(path.string());
      fill(f.id());
    }
    const std::string message = refusal(path);
    EXPECT_NE(message, "") << parts.front();
    EXPECT_TRUE(contains(message, path.string())) << message;
    for (const auto& part : parts)
      EXPECT_TRUE(contains(message, part)) << part << " not in: " << message;
  };
  check(
      [](hid_t f) {
        h5::write_dataset<double>(f, "mass", std::vector<double>{1, 1}, std::array<hsize_t, 1>{2});
      },
      {"no dataset 'position'"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1}, {1, 2, 3, 4}, kVel);
      },
      {"/position", "shape [2][2]", "[2][3]"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1, 1}, kPos, kVel);
      },
      {"/position", "shape [3][2]", "[3][3]"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1}, {1, 2, 3, 4, 5, std::nan("")}, kVel);
      },
      {"/position[1][2]", "nan", "a finite number"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1}, kPos, {0, 0, 0, 0, HUGE_VAL, 0});
      },
      {"/velocity[1][1]", "inf"});
  check([](hid_t f) { write_group(f, {-1, 1}, kPos, kVel); }, {"/mass[0]", "-1", ">= 0"});
  check(
      [](hid_t f) {
        const std::vector<std::uint64_t> ids{7, 7};
        write_group(f, {1, 1}, kPos, kVel, &ids);
      },
      {"/id[1]", "7", "/id[0] has it"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1}, kPos, kVel);
        h5::write_dataset<double>(f, "id", std::vector<double>{0.5, 1}, std::array<hsize_t, 1>{2});
      },
      {"/id", "integers"});
  check(
      [](hid_t f) {
        write_group(f, {1, 1}, kPos, kVel);
        h5::write_attribute(f, "G", -1.0);
      },
      {"attribute 'G'", "> 0"});
  check([](hid_t f) { write_group(f, {1}, {1, 2, 3}, {0, 0, 0}); }, {"1 particle", "at least 2"});
  check([](hid_t f) { h5::Handle s = h5::create_group(f, "snapshots"); }, {"/snapshots is empty"});
}

// Attributes as numpy and h5py write them: integers are the numbers they hold; a non-finite
// number or a text is refused, never taken for an absent attribute (G = 1, ε = 0, t = 0).
TEST(SceneFile, Hdf5AttributesAreReadAsNumbersOrRefused) {
  TempDir dir;
  const auto integers = dir / "integers.h5";
  {
    h5::Handle f = h5::create_file(integers.string());
    write_group(f.id(), {1.0, 3.0}, kPos, kVel);
    h5::write_attribute(f.id(), "G", std::int64_t{2});
    h5::write_attribute(f.id(), "softening", std::int64_t{1});
    h5::write_attribute(f.id(), "time", std::int64_t{5});
  }
  const InitialConditions ic = read_particle_file(integers);
  EXPECT_EQ(ic.g, 2.0);
  EXPECT_EQ(ic.softening, 1.0);
  EXPECT_EQ(ic.time, 5.0);
  EXPECT_GT(ic.t_end, 5.0);  // the suggested end lies after the particles' time
  int k = 0;
  auto refused_with = [&](const std::string& name, auto value, const std::string& said) {
    const auto path = dir / ("bad" + std::to_string(k++) + ".h5");
    {
      h5::Handle f = h5::create_file(path.string());
      write_group(f.id(), {1.0, 3.0}, kPos, kVel);
      h5::write_attribute(f.id(), name, value);
    }
    const std::string message = refusal(path);
    EXPECT_TRUE(contains(message, "attribute '" + name + "'")) << message;
    EXPECT_TRUE(contains(message, said)) << said << " not in: " << message;
  };
  refused_with("G", std::nan(""), "nan");
  refused_with("time", HUGE_VAL, "inf");
  refused_with("softening", -HUGE_VAL, "-inf");
  refused_with("G", std::string("2"), "one number");
}

}  // namespace
}  // namespace orrery

// core::Attachments: a slot per type, created on first use, dropped by Clear.
#include "core/attachments.h"

#include <gtest/gtest.h>

#include <string>

namespace aclsim::core {
namespace {

struct Tally {
  int value = 0;
};
struct Name {
  std::string text;
};

TEST(AttachmentsTest, OneSlotPerTypeCreatedOnFirstUse) {
  Attachments attachments;
  EXPECT_EQ(attachments.Find<Tally>(), nullptr);
  attachments.Get<Tally>()->value = 7;
  attachments.Get<Name>()->text = "x";
  EXPECT_EQ(attachments.Get<Tally>()->value, 7);
  EXPECT_EQ(attachments.Find<Name>()->text, "x");
  EXPECT_EQ(attachments.size(), 2u);
}

TEST(AttachmentsTest, ClearForgetsEverySlotButHoldersKeepTheirs) {
  Attachments attachments;
  auto held = attachments.Get<Tally>();
  held->value = 3;
  attachments.Clear();
  EXPECT_EQ(attachments.size(), 0u);
  EXPECT_EQ(attachments.Find<Tally>(), nullptr);
  EXPECT_EQ(held->value, 3);                      // still valid for its holder
  EXPECT_EQ(attachments.Get<Tally>()->value, 0);  // a fresh slot
}

}  // namespace
}  // namespace aclsim::core
